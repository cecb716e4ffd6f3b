"""The benchmark's smoke run (README, "Benchmark"), at a tiny size so it keeps
working: every step runs as in the real benchmark, the pipeline's tables equal
the hand-written baseline's and the source table's, and the results are written
as JSON, Markdown and a PNG plot."""

import json
import subprocess
import sys

import pytest

from bench.project import PROJECT_DIR

pytestmark = pytest.mark.spark


def test_benchmark_smoke_run(tmp_path):
    results = tmp_path / "results"
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.run",
            "--sizes",
            "3k",
            "--work",
            str(tmp_path / "work"),
            "--results",
            str(results),
        ],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    document = json.loads((results / "benchmark.json").read_text())
    assert document["all_checks_passed"] is True
    (size,) = document["sizes"]
    assert (size["changes"], size["keys"], size["main_batch_changes"], size["increment_changes"]) == (
        3000,
        300,
        2970,
        30,
    )
    # every comparison ran and found the tables equal, row for row
    assert set(size["checks"]) == {
        "full_history_vs_baseline",
        "full_current_vs_baseline",
        "incremental_history_vs_baseline",
        "incremental_current_vs_baseline",
        "incremental_current_vs_source_table",
    }
    for name, check in size["checks"].items():
        assert check["rows"] == check["expected_rows"] > 0, name
        assert check["unexpected"] == check["missing"] == 0, name
    # the history grew with the increment
    assert (
        size["checks"]["incremental_history_vs_baseline"]["rows"]
        > size["checks"]["full_history_vs_baseline"]["rows"]
    )
    for step in ("full_build", "incremental", "baseline"):
        assert size[step]["wall_s"] > 0 and size[step]["peak_rss_mib"] > 100, step
    assert size["mask_decoding"]["masks"] > 3000
    assert size["ratios"]["full_over_baseline"] > 0
    assert "| 3,000 | 300 | full build (2,970) |" in (results / "benchmark.md").read_text()
    assert (results / "benchmark.png").read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "work" / "3000" / "state").exists()  # scratch data removed
