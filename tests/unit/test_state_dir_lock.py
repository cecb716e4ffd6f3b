"""One process per state folder: a second `cdcflow` command on a state folder in
use stops at once (before Spark starts) with one line naming the process that
has it; a killed holder leaves nothing to clear."""

import os
import re
import signal
import subprocess
import sys

import pytest

from launcher.spark import PROJECT_DIR
from launcher.state_dir_lock import LOCK_FILE, StateDirInUse, hold_state_dir

# a process that takes the state folder as `cdcflow run` does, says so, and waits
HOLDER = (
    "import sys, time; sys.argv = ['cli.py', 'run', '--state-dir', sys.argv[1]];"
    " from launcher.state_dir_lock import hold_state_dir; hold_state_dir(sys.argv[3]);"
    " print('held', flush=True); time.sleep(600)"
)


@pytest.fixture
def holder(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)], cwd=PROJECT_DIR, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout.readline() == "held\n"
    yield process
    process.kill()
    process.wait()


def test_a_state_folder_in_use_is_refused_naming_its_process(tmp_path, holder):
    with pytest.raises(StateDirInUse) as refused:
        hold_state_dir(tmp_path)
    assert re.fullmatch(
        rf"{tmp_path} is in use by process {holder.pid} \(`cdcflow run --state-dir {tmp_path}`, since"
        r" \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \w+\): its embedded metastore admits one process at a time\. Wait"
        r" for that one to end, or give this one another --state-dir \(CDCFLOW_STATE_DIR\)\. A killed process"
        r" holds nothing: its lock ends with it\.",
        str(refused.value),
    )


def test_cdcflow_run_stops_at_once_with_one_line(tmp_path, holder):
    refused = subprocess.run(
        [sys.executable, "-m", "launcher.cli", "run", "--state-dir", str(tmp_path)],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr.startswith(f"cdcflow: {tmp_path} is in use by process {holder.pid} (`cdcflow run")
    assert refused.stderr.count("\n") == 1
    assert not (tmp_path / "metastore_db").exists()  # refused before Spark started


def test_a_killed_holder_leaves_the_folder_free(tmp_path, holder):
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert (tmp_path / LOCK_FILE).exists()  # what it wrote stays, but no lock
    hold_state_dir(tmp_path)
    hold_state_dir(tmp_path)  # again in the same process: already its own
