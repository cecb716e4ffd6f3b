"""The driver JVM's class-data archive (launcher/class_archive.py): made by one
process at a time, published only when its JVM ended well, looked up by a digest
of the JVM and the class path, never with a folder of files on the class path.
The JVM itself is tested in tests/e2e/test_class_archive.py."""

import os
import subprocess
import sys

import pytest

from launcher import class_archive


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A Spark home of two jars, an archive folder, no conf folder of one's own."""
    spark_home = tmp_path / "spark"
    (spark_home / "jars").mkdir(parents=True)
    for name in ("spark-core.jar", "hive-exec.jar"):
        (spark_home / "jars" / name).write_bytes(b"jar")
    monkeypatch.setenv("SPARK_HOME", str(spark_home))
    monkeypatch.delenv("SPARK_CONF_DIR", raising=False)
    monkeypatch.delenv("CDCFLOW_CLASS_ARCHIVE", raising=False)
    monkeypatch.setenv("CDCFLOW_CLASS_ARCHIVE_DIR", str(tmp_path / "archives"))
    return spark_home


def test_the_class_path_is_spark_s_and_a_folder_of_files_on_it_rules_an_archive_out(
    home, tmp_path, monkeypatch
):
    extra = tmp_path / "delta.jar"
    extra.write_bytes(b"jar")
    assert class_archive.class_path([str(extra)]) == [
        extra,
        home / "jars" / "hive-exec.jar",
        home / "jars" / "spark-core.jar",
    ]
    conf = tmp_path / "conf"
    conf.mkdir()
    assert class_archive.class_path([]) is not None  # an empty conf folder is no obstacle
    (conf / "spark-defaults.conf").write_text("spark.sql.shuffle.partitions 2\n")
    monkeypatch.setenv("SPARK_CONF_DIR", str(conf))
    assert class_archive.class_path([]) is None
    assert class_archive.plan([]) == class_archive.NO_ARCHIVE


def test_the_key_changes_with_a_jar(home, tmp_path):
    java = class_archive.java_binary()
    before = class_archive.archive_key(java, class_archive.class_path([]))
    assert class_archive.archive_key(java, class_archive.class_path([])) == before
    (home / "jars" / "spark-core.jar").write_bytes(b"another jar")
    assert class_archive.archive_key(java, class_archive.class_path([])) != before


def test_one_process_makes_it_and_the_next_maps_it_once_published(home, tmp_path):
    made = class_archive.plan([])
    assert made.making and f"-XX:ArchiveClassesAtExit={made.part}" in made.java_options
    assert made.lock.read_text() == str(os.getpid())
    # meanwhile another session neither makes nor maps one
    assert class_archive.plan([]) == class_archive.NO_ARCHIVE
    made.part.write_bytes(b"archive")  # what the JVM writes as it ends
    class_archive.finish(made, 0)
    assert made.archive.read_bytes() == b"archive"
    assert not made.part.exists() and not made.lock.exists()
    mapped = class_archive.plan([])
    assert not mapped.making
    assert mapped.java_options == f"-XX:SharedArchiveFile={made.archive} {class_archive.QUIET}"


def test_a_jvm_that_failed_publishes_nothing_and_is_not_asked_again(home):
    made = class_archive.plan([])
    made.part.write_bytes(b"half")
    class_archive.finish(made, 1)
    assert not made.archive.exists() and not made.part.exists() and not made.lock.exists()
    assert made.archive.with_suffix(".failed").read_text() == "the JVM ended with status 1\n"
    assert class_archive.plan([]) == class_archive.NO_ARCHIVE


def test_a_killed_maker_s_lock_and_part_are_taken_over(home):
    made = class_archive.plan([])
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    made.lock.write_text(dead.stdout.strip())
    left = made.part.with_name(f"{made.archive.name}.{dead.stdout.strip()}.part")
    left.write_bytes(b"half")
    again = class_archive.plan([])
    assert again.making and not left.exists()


def test_off_and_an_unwritable_folder_mean_no_archive(home, monkeypatch, tmp_path):
    monkeypatch.setenv("CDCFLOW_CLASS_ARCHIVE", "off")
    assert class_archive.plan([]) == class_archive.NO_ARCHIVE
    monkeypatch.delenv("CDCFLOW_CLASS_ARCHIVE")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CDCFLOW_CLASS_ARCHIVE_DIR", str(blocker / "archives"))
    assert class_archive.plan([]) == class_archive.NO_ARCHIVE


def test_a_jvm_that_did_not_end_decides_nothing(home):
    made = class_archive.plan([])
    made.part.write_bytes(b"half")
    class_archive.finish(made, None)
    assert not made.archive.exists() and not made.archive.with_suffix(".failed").exists()
    assert not made.lock.exists()  # the next session makes it again
    assert class_archive.plan([]).making
    class_archive.finish(class_archive.NO_ARCHIVE, 0)  # a session that made none: nothing to do
