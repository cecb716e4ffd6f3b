"""A class-data archive of the driver JVM's classes (JDK application class-data
sharing): the first session of an installation records the classes it loaded
into an archive when its JVM ends; every later session maps them from it instead
of loading, verifying and linking Spark's, Hive's and the table format's classes
from their jars again. That is most of what a Spark session costs to start.

JDK 17 makes the archive only when the JVM exits normally, and maps a
half-written one to its own crash: the archive is written under a name of its
own, and renamed to the name sessions look for only after its JVM ended with
status 0 (`finish`). One process makes it at a time (a lock file naming its
process). The archive is only valid for the JVM and the class path it was made
with: its name is a digest of both (the java binary, each class path entry's
path, size and time). JDK 17 cannot archive with a folder holding files on the
class path: Spark puts SPARK_CONF_DIR there, so with a spark-defaults.conf in
a folder of one's own sessions neither make nor use one (a properties file given
to spark-submit, as the test suite gives its settings, keeps it). `make setup`
makes it (`cdcflow class-archive`).

CDCFLOW_CLASS_ARCHIVE_DIR says where archives are kept (default: share/cdcflow/jvm
of the environment cdcflow is installed in, beside the table formats' jars);
CDCFLOW_CLASS_ARCHIVE=off turns the archive off.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

# the JVM's messages about an archive it cannot use (made for another class path)
QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"


@dataclass(frozen=True)
class ClassArchive:
    """What a session's driver JVM does with the archive: ``java_options`` to add to
    it; a ``part`` (and its ``lock``) when this process makes the archive (call
    `finish` once its JVM has ended)."""

    java_options: str
    archive: Path | None = None
    part: Path | None = None
    lock: Path | None = None

    @property
    def making(self) -> bool:
        return self.part is not None


NO_ARCHIVE = ClassArchive("")


def archive_dir() -> Path:
    given = os.environ.get("CDCFLOW_CLASS_ARCHIVE_DIR")
    return Path(given) if given else Path(sys.prefix) / "share" / "cdcflow" / "jvm"


def spark_home() -> Path:
    if os.environ.get("SPARK_HOME"):
        return Path(os.environ["SPARK_HOME"])
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def java_binary() -> Path | None:
    """The java Spark's launcher runs: $JAVA_HOME/bin/java, else the one on PATH."""
    if os.environ.get("JAVA_HOME"):
        return Path(os.environ["JAVA_HOME"]) / "bin" / "java"
    found = shutil.which("java")
    return Path(found) if found else None


def spark_conf_dir() -> Path:
    """The folder Spark reads spark-defaults.conf from and puts on the class path:
    SPARK_CONF_DIR, else SPARK_HOME/conf."""
    return Path(os.environ.get("SPARK_CONF_DIR") or spark_home() / "conf")


def class_path(extra_class_path: list[str]) -> list[Path] | None:
    """The driver's class path as Spark's launcher builds it: spark.driver.extraClassPath,
    the conf folder, the jars of SPARK_HOME/jars. None when a folder on it holds
    files: JDK 17 refuses to archive then."""
    entries = [Path(entry) for entry in extra_class_path if entry]
    for entry in [*entries, spark_conf_dir()]:
        if entry.is_dir() and any(entry.iterdir()):
            return None
    return entries + sorted((spark_home() / "jars").glob("*.jar"))


def archive_key(java: Path, entries: list[Path]) -> str:
    """A digest of the JVM and the class path the archive is valid for."""
    digest = hashlib.sha256()
    real_java = java.resolve()
    for path in [real_java, *real_java.parent.parent.glob("lib/server/libjvm.so"), *entries]:
        stat = path.stat() if path.exists() else None
        digest.update(
            f"{path}\0{stat.st_size if stat else -1}\0{stat.st_mtime_ns if stat else -1}\n".encode()
        )
    return digest.hexdigest()[:20]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _take_lock(lock: Path) -> bool:
    """Create ``lock`` naming this process; a lock whose process has ended is taken over."""
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                holder = int(lock.read_text().strip() or "0")
            except (OSError, ValueError):
                holder = 0
            if holder and _alive(holder):
                return False
            lock.unlink(missing_ok=True)
            continue
        with os.fdopen(descriptor, "w") as handle:
            handle.write(str(os.getpid()))
        return True
    return False


def plan(extra_class_path: list[str]) -> ClassArchive:
    """The archive of this JVM and class path: mapped when it exists; else, when no
    other process is making it, made by this session's JVM when it ends."""
    if os.environ.get("CDCFLOW_CLASS_ARCHIVE", "").lower() in ("off", "0", "false", "no"):
        return NO_ARCHIVE
    java = java_binary()
    try:
        entries = class_path(extra_class_path)
    except ImportError:
        return NO_ARCHIVE
    if java is None or entries is None:
        return NO_ARCHIVE
    folder = archive_dir()
    key = archive_key(java, entries)
    archive = folder / f"spark-{key}.jsa"
    if archive.is_file():
        return ClassArchive(f"-XX:SharedArchiveFile={archive} {QUIET}", archive=archive)
    failed = folder / f"spark-{key}.failed"
    if failed.exists():
        return NO_ARCHIVE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = folder / f"spark-{key}.lock"
        if not _take_lock(lock):
            return NO_ARCHIVE
    except OSError:
        return NO_ARCHIVE  # not writable: sessions run without one
    for left in folder.glob(f"spark-{key}.jsa.*.part"):
        left.unlink(missing_ok=True)  # a maker killed before it finished
    part = folder / f"spark-{key}.jsa.{os.getpid()}.part"
    return ClassArchive(f"-XX:ArchiveClassesAtExit={part} {QUIET}", archive=archive, part=part, lock=lock)


def finish(plan_made: ClassArchive, jvm_status: int | None) -> None:
    """Once the JVM that made the archive has ended with ``jvm_status``: publish the
    archive if it ended with status 0; else remember that this JVM and class path
    cannot make one (None: it did not end, nothing is decided)."""
    if not plan_made.making:
        return
    try:
        if jvm_status == 0 and plan_made.part.is_file() and plan_made.part.stat().st_size > 0:
            os.replace(plan_made.part, plan_made.archive)
        elif jvm_status is not None:  # it failed, or it ended without writing one (no base archive)
            plan_made.part.unlink(missing_ok=True)
            plan_made.archive.with_suffix(".failed").write_text(f"the JVM ended with status {jvm_status}\n")
    finally:
        plan_made.lock.unlink(missing_ok=True)
