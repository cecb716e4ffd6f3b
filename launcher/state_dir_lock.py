"""One process per state folder: an advisory lock taken before Spark starts.

The embedded Derby metastore admits one process per state folder. Without this
lock a second `cdcflow run` found out only when Spark first read the catalog,
after a minute or two, under thousands of lines of Java stack traces. The lock
is an ``flock`` on ``<state folder>/cdcflow.lock``: the operating system
releases it when its process ends, killed or not, so a killed run never leaves
a claim anyone has to clear.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from pathlib import Path

LOCK_FILE = "cdcflow.lock"

# lock file -> descriptor, for the life of the process (closing it would release the lock)
_held: dict[Path, int] = {}


class StateDirInUse(RuntimeError):
    """Another process holds the state folder."""


def holder_text(holder: dict) -> str:
    """Who holds a lock, from what it wrote in the lock file."""
    if not holder:
        return "another process"
    return (
        f"process {holder.get('pid', '?')} (`{holder.get('command', '?')}`, since {holder.get('since', '?')})"
    )


def in_use_message(state_dir: Path, holder: dict) -> str:
    return (
        f"{state_dir} is in use by {holder_text(holder)}: its embedded metastore admits one process at a"
        " time. Wait for that one to end, or give this one another --state-dir (CDCFLOW_STATE_DIR)."
        " A killed process holds nothing: its lock ends with it."
    )


def hold_state_dir(state_dir: Path) -> None:
    """Take the state folder for this process, or raise StateDirInUse naming the
    process that has it. Taking it again in the same process is a no-op."""
    state_dir = Path(state_dir).resolve()
    path = state_dir / LOCK_FILE
    if path in _held:
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(descriptor)
        os.close(descriptor)
        raise StateDirInUse(in_use_message(state_dir, holder)) from None
    program = Path(sys.argv[0]).name
    command = " ".join(["cdcflow" if program == "cli.py" else program, *sys.argv[1:]])
    holder = {
        "pid": os.getpid(),
        "command": command if len(command) <= 120 else command[:119] + "…",
        "since": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, json.dumps(holder).encode(), 0)
    _held[path] = descriptor


def _read_holder(descriptor: int) -> dict:
    try:
        return json.loads(os.pread(descriptor, 4096, 0) or b"{}")
    except ValueError:  # written at this very moment
        return {}


def release_state_dir(state_dir: Path) -> None:
    """Give the state folder back (this process no longer uses its metastore:
    its Spark has stopped). A folder this process does not hold: a no-op."""
    descriptor = _held.pop(Path(state_dir).resolve() / LOCK_FILE, None)
    if descriptor is not None:
        os.ftruncate(descriptor, 0)
        os.close(descriptor)  # closing the descriptor releases the flock
