"""Which project `cdcflow dbt` runs."""

from pathlib import Path

from launcher.cli import _project_dir
from launcher.spark import PROJECT_DIR


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


def test_docs_generates_then_serves_on_loopback_only(tmp_path, monkeypatch):
    import launcher.cli
    import launcher.dbt_invoke

    calls = []

    class Ok:
        success = True

    def invoke(args, *, state_dir, project_dir):
        calls.append((args, state_dir, project_dir))
        return Ok()

    monkeypatch.setattr(launcher.cli, "_session", lambda args: None)
    monkeypatch.setattr(launcher.dbt_invoke, "invoke_dbt", invoke)
    state = tmp_path / "state"
    assert launcher.cli.main(["docs", "--state-dir", str(state), "--project-dir", str(tmp_path)]) == 0
    assert calls == [
        (["docs", "generate"], state, tmp_path),
        (["docs", "serve", "--host", "127.0.0.1", "--port", "8080", "--no-browser"], state, tmp_path),
    ]
