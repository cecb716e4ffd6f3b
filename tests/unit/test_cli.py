"""Which project `cdcflow dbt` runs."""

from pathlib import Path

import pytest

from launcher.cli import _default_state_dir, _project_dir, parser
from launcher.spark import PROJECT_DIR
from launcher.state_dir_lock import hold_state_dir


def test_a_project_dir_among_dbts_arguments_is_the_one_run(tmp_path):
    assert _project_dir(["run", "--project-dir", str(tmp_path), "-s", "x"], None) == (
        ["run", "-s", "x"],
        tmp_path,
    )
    assert _project_dir([f"--project-dir={tmp_path}", "build"], Path("/elsewhere")) == (["build"], tmp_path)


def test_the_launchers_project_dir_comes_next(tmp_path):
    assert _project_dir(["run"], tmp_path) == (["run"], tmp_path)


def test_else_the_current_folders_project_else_this_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _project_dir(["run"], None) == (["run"], PROJECT_DIR)
    (tmp_path / "dbt_project.yml").write_text("name: mine\n")
    assert _project_dir(["run"], None) == (["run"], tmp_path)


def test_the_state_folder_is_in_the_project_the_command_runs(tmp_path, monkeypatch):
    """A consumer's state lands in its own project, never in the installed package's folder."""
    monkeypatch.delenv("CDCFLOW_STATE_DIR", raising=False)
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "dbt_project.yml").write_text("name: consumer\n")
    monkeypatch.chdir(consumer)

    def state_of(*argv: str) -> Path:
        args = parser().parse_args(list(argv))
        assert args.state_dir is None  # the default is decided with the project
        return _default_state_dir(args)

    assert state_of("dbt", "--", "build") == consumer / ".cdcflow"
    assert state_of("onboard", "--check") == consumer / ".cdcflow"
    assert state_of("serve") == consumer / ".cdcflow"
    other = tmp_path / "other"
    assert state_of("dbt", "--", "run", "--project-dir", str(other)) == other / ".cdcflow"
    assert state_of("docs", "--project-dir", str(other)) == other / ".cdcflow"
    assert state_of("run") == PROJECT_DIR / ".cdcflow"  # the samples: cdcflow's own project
    monkeypatch.chdir(tmp_path)  # no dbt project here
    assert state_of("serve") == PROJECT_DIR / ".cdcflow"
    assert parser().parse_args(["dbt", "--state-dir", "s", "--", "run"]).state_dir == Path("s")


def test_docs_generates_then_serves_on_loopback_only(tmp_path, monkeypatch, capsys):
    import launcher.cli
    import launcher.dbt_invoke

    calls = []

    class Ok:
        success = True

    def invoke(args, *, state_dir, project_dir):
        # generated with the state folder held (the catalog reads the metastore), served without it
        calls.append((args, state_dir, project_dir, _held_here(state_dir)))
        if args[1] == "serve":
            raise KeyboardInterrupt  # Ctrl-C
        return Ok()

    state = tmp_path / "state"
    monkeypatch.setattr(launcher.cli, "_session", lambda args, **_: hold_state_dir(state))
    # (never this process's own Spark: a test worker's session serves the other tests)
    monkeypatch.setattr(launcher.cli, "stop_jvm", lambda: calls.append("Spark stopped"))
    monkeypatch.setattr(launcher.dbt_invoke, "invoke_dbt", invoke)
    assert launcher.cli.main(["docs", "--state-dir", str(state), "--project-dir", str(tmp_path)]) == 0
    assert calls == [
        (["docs", "generate"], state, tmp_path, True),
        "Spark stopped",
        (["docs", "serve", "--host", "127.0.0.1", "--port", "8080", "--no-browser"], state, tmp_path, False),
    ]
    # Ctrl-C ends it quietly
    assert capsys.readouterr().out.splitlines()[-1] == "cdcflow: docs server stopped"


def _held_here(state_dir) -> bool:
    """Whether another process could take the state folder now."""
    import fcntl
    import os

    descriptor = os.open(state_dir / "cdcflow.lock", os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False


def test_a_configuration_mistake_stops_before_spark_starts(tmp_path, monkeypatch, capsys):
    import pytest
    import yaml

    import launcher.cli

    def no_spark(*args, **kwargs):
        raise AssertionError("Spark started before the configuration was checked")

    monkeypatch.setattr(launcher.cli, "_session", no_spark)
    entry = {
        "format": "qlik_ct",
        "key": ["invoice_id"],
        "columns": {"invoice_id": "bigint", "amount": "decimal(12"},
    }
    (tmp_path / "dbt_project.yml").write_text(
        yaml.safe_dump({"name": "consumer", "vars": {"cdcflow_tables": {"invoices": entry}}})
    )
    with pytest.raises(SystemExit) as stopped:
        launcher.cli.main(
            ["dbt", "--state-dir", str(tmp_path / "s"), "--", "build", "--project-dir", str(tmp_path)]
        )
    assert stopped.value.code == 2
    assert capsys.readouterr().err.startswith(
        "cdcflow: table 'invoices' column 'amount' has type 'decimal(12', whose brackets do not close."
    )


def test_installed_with_pip_outside_a_project_it_says_where_to_run(tmp_path, monkeypatch, capsys):
    """Installed (no cdcflow project beside the launcher): the state folder of a
    command outside any project is the current folder's; a command that runs a
    project stops, naming the folder; `cdcflow run` says what to run instead."""
    import launcher.cli
    from launcher.cli import _project_or_stop, cmd_run

    monkeypatch.setattr(launcher.cli, "SAMPLES_PROJECT", None)
    monkeypatch.delenv("CDCFLOW_STATE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert _project_dir(["run"], None) == (["run"], None)
    assert _default_state_dir(parser().parse_args(["serve"])) == tmp_path / ".cdcflow"
    with pytest.raises(SystemExit) as stopped:
        _project_or_stop(None)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        f"cdcflow: no dbt project in {tmp_path} (no dbt_project.yml): run it in your project's folder,"
        " or pass --project-dir"
    )
    assert cmd_run(parser().parse_args(["run", "--state-dir", str(tmp_path / "s")])) == 2
    assert "in your own project: cdcflow dbt -- build" in capsys.readouterr().err


def test_the_profile_is_dbt_profiles_dir_else_the_projects_else_cdcflows_own(tmp_path, monkeypatch):
    from launcher.dbt_invoke import BUNDLED_PROFILES_DIR, profiles_dir

    monkeypatch.delenv("DBT_PROFILES_DIR", raising=False)
    assert (BUNDLED_PROFILES_DIR / "profiles.yml").read_text().count("method: session") == 1
    assert profiles_dir(tmp_path) == BUNDLED_PROFILES_DIR
    (tmp_path / "profiles.yml").write_text("mine: {}\n")
    assert profiles_dir(tmp_path) == tmp_path
    monkeypatch.setenv("DBT_PROFILES_DIR", str(tmp_path / "elsewhere"))
    assert profiles_dir(tmp_path) == tmp_path / "elsewhere"
    # in a clone, the root's profiles.yml is the launcher's (a link): `dbt --target thrift` there
    assert (PROJECT_DIR / "profiles.yml").resolve() == (BUNDLED_PROFILES_DIR / "profiles.yml").resolve()


def test_seeds_as_dbt_last_loaded_them_are_known_without_dbt(tmp_path, monkeypatch):
    """`cdcflow run` skips `dbt ls` when every seed has the checksum dbt gave it at
    the last load and nothing else that decides the load changed; else dbt judges."""
    from dbt.cli.main import dbtRunner

    from launcher.cli import SEED_INPUTS, _seed_inputs, _seeds_unchanged
    from launcher.dbt_invoke import profiles_dir

    project = tmp_path / "shop"
    (project / "seeds" / "raw").mkdir(parents=True)
    (project / "dbt_project.yml").write_text(
        "name: shop\nprofile: cdcflow\nseeds:\n  shop:\n    +schema: raw\n"
    )
    (project / "seeds" / "raw" / "customers.csv").write_text("id,name\n1,Ann\n2,Bo\n")
    monkeypatch.setenv("CDCFLOW_SCHEMA", "shop")
    parsed = dbtRunner().invoke(
        [
            "parse",
            "--project-dir",
            str(project),
            "--profiles-dir",
            str(profiles_dir()),
            "--target-path",
            str(tmp_path / "target"),
            "--log-path",
            str(tmp_path / "logs"),
        ]
    )
    assert parsed.success, parsed.exception
    saved = tmp_path / "seeded"
    saved.mkdir()
    (saved / "manifest.json").write_text((tmp_path / "target" / "manifest.json").read_text())
    assert not _seeds_unchanged(saved, project, [])  # no record of the inputs: dbt judges
    (saved / SEED_INPUTS).write_text(_seed_inputs(project, []))
    assert _seeds_unchanged(saved, project, [])
    # dbt strips the file before its checksum: a trailing newline more is no change
    (project / "seeds" / "raw" / "customers.csv").write_text("id,name\n1,Ann\n2,Bo\n\n")
    assert _seeds_unchanged(saved, project, [])
    assert not _seeds_unchanged(saved, project, ["--vars", "{a: 1}"])
    monkeypatch.setenv("CDCFLOW_SCHEMA", "other")
    assert not _seeds_unchanged(saved, project, [])
    monkeypatch.setenv("CDCFLOW_SCHEMA", "shop")
    (project / "seeds" / "raw" / "orders.csv").write_text("id\n1\n")
    assert not _seeds_unchanged(saved, project, [])
    (project / "seeds" / "raw" / "orders.csv").unlink()
    (project / "seeds" / "raw" / "customers.csv").write_text("id,name\n1,Ann\n2,Bob\n")
    assert not _seeds_unchanged(saved, project, [])
    (project / "seeds" / "raw" / "customers.csv").write_text("id,name\n1,Ann\n2,Bo\n")
    assert _seeds_unchanged(saved, project, [])
    (project / "seeds" / "raw" / "_seeds.yml").write_text("version: 2\n")
    assert not _seeds_unchanged(saved, project, [])


def test_the_commands_that_run_dbt_import_it_while_the_jvm_starts():
    """`cdcflow run`, `dbt` and `docs` start dbt's import in a thread before the
    session's JVM (a new process: nothing of dbt imported before)."""
    import subprocess
    import sys

    script = (
        "import sys, threading\n"
        "import launcher.cli as cli\n"
        "before = [m for m in cli.DBT_MODULES if m in sys.modules]\n"
        "cli._import_dbt_beside_the_jvm()\n"
        "[importing] = [t for t in threading.enumerate() if t.name == 'cdcflow-dbt-import']\n"
        "importing.join(timeout=120)\n"
        "print(before, [m for m in cli.DBT_MODULES if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT_DIR)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] ['dbt.cli.main', 'dbt.adapters.spark']"


def test_run_dbt_and_docs_ask_for_dbt_beside_the_session(tmp_path, monkeypatch):
    import launcher.cli

    class SessionAsked(Exception):
        pass

    asked = []

    def session(args, **options):
        asked.append((args.command, options.get("dbt_follows")))
        raise SessionAsked

    monkeypatch.setattr(launcher.cli, "_session", session)
    state = ["--state-dir", str(tmp_path / "state")]
    for argv in (
        ["run", *state],
        ["dbt", *state, "--project-dir", str(PROJECT_DIR), "--", "ls"],
        ["docs", *state, "--project-dir", str(PROJECT_DIR)],
    ):
        with pytest.raises(SessionAsked):
            launcher.cli.main(argv)
    assert asked == [("run", True), ("dbt", True), ("docs", True)]


def test_a_failed_dbt_import_beside_the_jvm_is_left_to_the_command(monkeypatch):
    import threading

    import launcher.cli

    escaped = []
    monkeypatch.setattr(threading, "excepthook", escaped.append)
    monkeypatch.setattr(launcher.cli, "DBT_MODULES", ("cdcflow_no_such_module",))
    launcher.cli._import_dbt_beside_the_jvm()
    for thread in threading.enumerate():
        if thread.name == "cdcflow-dbt-import":
            thread.join(timeout=60)
    assert escaped == []
