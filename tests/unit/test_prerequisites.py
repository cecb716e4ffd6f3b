"""A machine without Java gets a message that names what to install."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from launcher.spark import JavaMissing, check_java

PROJECT_DIR = Path(__file__).resolve().parents[2]


def test_check_java_names_the_package_when_java_is_missing(monkeypatch, tmp_path):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(JavaMissing, match="sudo apt-get install openjdk-17-jre-headless"):
        check_java()


def test_setup_script_stops_with_the_install_command_when_java_is_missing(tmp_path):
    # a PATH with this Python and the basic tools the script uses, but no java
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "sed", "head"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {"PATH": str(bin_dir), "HOME": os.environ.get("HOME", "/tmp")}
    result = subprocess.run(
        [str(bin_dir / "bash"), str(PROJECT_DIR / "scripts" / "check_prerequisites.sh"), "python3"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Spark needs Java 17" in result.stderr
    assert "sudo apt-get install openjdk-17-jre-headless" in result.stderr


def test_setup_script_accepts_this_machine():
    result = subprocess.run(
        ["bash", str(PROJECT_DIR / "scripts" / "check_prerequisites.sh"), sys.executable],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_setup_script_names_maven_when_it_is_missing(tmp_path):
    # java and this Python, but no mvn: `make setup` fetches the table formats' jars with it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "sed", "head", "java"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {"PATH": str(bin_dir), "HOME": os.environ.get("HOME", "/tmp")}
    script = [str(bin_dir / "bash"), str(PROJECT_DIR / "scripts" / "check_prerequisites.sh"), "python3"]
    result = subprocess.run([*script, "--setup"], env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "Maven (mvn) fetches the Delta Lake and Iceberg jars" in result.stderr
    assert "sudo apt-get install maven" in result.stderr
    # a run needs no Maven
    assert subprocess.run(script, env=env, capture_output=True, text=True, check=False).returncode == 0
