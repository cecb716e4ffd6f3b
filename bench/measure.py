"""Run a command and measure it from the OS: wall time, and peak memory as the
largest sum of resident set sizes over the command's process tree (dbt's
Python, the Spark JVM it starts, Python UDF workers), sampled from /proc; plus
GNU time's "Maximum resident set size" (the largest single process) when
/usr/bin/time is installed.

A process with its parent's command line has been forked and has not run a new
program: it shares its parent's pages (copy on write) and is not counted again.
The JVM forks so to run shell commands (Hadoop's local file system does, when
Spark writes a table): counted twice, the 4 GiB JVM read as 8 GiB and more for
the instant of the fork."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
GNU_TIME = "/usr/bin/time"


@dataclass
class Measured:
    command: list[str]
    returncode: int
    wall_s: float
    peak_tree_rss_mib: float
    peak_process_rss_mib: float | None  # GNU time's maximum resident set size
    output: str


def _processes() -> dict[int, tuple[int, bytes]]:
    """Every process: its parent and its command line."""
    processes: dict[int, tuple[int, bytes]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            processes[int(entry.name)] = (int(fields[1]), (entry / "cmdline").read_bytes())
        except (OSError, IndexError, ValueError):
            continue
    return processes


def tree_rss_kib(root: int) -> int:
    """Resident memory of ``root`` and all its descendants, in KiB; a fork that
    has not run a new program (its parent's command line) is not counted again."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        parent, command = processes.get(pid, (None, None))
        if pid != root and parent in processes and command and command == processes[parent][1]:
            continue
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KIB
        except (OSError, IndexError, ValueError):
            pass
    return total


def run(
    command: list[str], *, log: Path, env: dict[str, str] | None = None, interval_s: float = 0.2
) -> Measured:
    """Run ``command`` (output to ``log``), sampling its process tree's memory."""
    timed = [GNU_TIME, "-v", *command] if shutil.which(GNU_TIME) else list(command)
    log.parent.mkdir(parents=True, exist_ok=True)
    peak = 0
    with open(log, "w") as out:
        started = time.monotonic()
        process = subprocess.Popen(timed, stdout=out, stderr=subprocess.STDOUT, env=env)
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.is_set():
                peak = max(peak, tree_rss_kib(process.pid))
                done.wait(interval_s)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        returncode = process.wait()
        wall = time.monotonic() - started
        done.set()
        sampler.join()
    output = log.read_text(errors="replace")
    gnu = re.search(r"Maximum resident set size \(kbytes\): (\d+)", output)
    return Measured(
        command=list(command),
        returncode=returncode,
        wall_s=round(wall, 2),
        peak_tree_rss_mib=round(peak / 1024, 1),
        peak_process_rss_mib=round(int(gnu.group(1)) / 1024, 1) if gnu else None,
        output=output,
    )
