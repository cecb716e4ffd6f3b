"""The benchmark's smoke run (README, "Benchmark"), at a tiny size so it keeps
working: its steps run as in the real benchmark (``--quick``: all but the run
with nothing new, the baseline on the main batch and the check after the full
build), the pipeline's tables
equal the hand-written baseline's and the source table's after the increment,
and the results are written as JSON, Markdown and a PNG plot. It runs with
CDCFLOW_FULL_SUITE=1 (tests/e2e/suite.py), as does the check of the benchmark's
stream in every format (tests/e2e/test_workload_formats.py); CI tests the
benchmark's own code without running it (tests/unit/test_bench.py, and its
table comparison in test_workload_formats.py)."""

import json
import subprocess
import sys

import pytest

from testkit.project import PROJECT_DIR
from tests.e2e.suite import full_suite_only

pytestmark = [
    pytest.mark.spark,
    full_suite_only("the benchmark's code without its runs, tests/unit/test_bench.py"),
]


def test_benchmark_smoke_run(tmp_path):
    results = tmp_path / "results"
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.run",
            "--sizes",
            "3k",
            # one format keeps CI short (each step is a process starting Spark);
            # tests/e2e/test_workload_formats.py builds all four from the
            # benchmark's stream and checks them after the main batch and the
            # increment, as the benchmark's own checks do
            "--formats",
            "qlik_ct",
            "--quick",
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
    # every format measured: full build, the incremental run (--quick: no run with nothing new)
    assert set(size["formats"]) == {"qlik_ct"}
    for source_format, steps in size["formats"].items():
        assert set(steps) == {"full_build", "incremental"}, source_format
        for name, step in steps.items():
            assert step["wall_s"] > 0 and step["peak_rss_mib"] > 100, (source_format, name)
        # --quick: no baseline on the main batch to compare the full build with
        assert size["ratios"][source_format]["full_over_baseline"] is None
        assert size["ratios"][source_format]["incremental_over_full"] > 0
    # every comparison ran (--quick: after the increment) and found the tables equal, row for row
    assert set(size["checks"]) == {
        "incremental_qlik_ct_history_vs_baseline",
        "incremental_qlik_ct_current_vs_baseline",
        "incremental_qlik_ct_current_vs_source_table",
    }
    for name, check in size["checks"].items():
        assert check["rows"] == check["expected_rows"] > 0, name
        assert check["unexpected"] == check["missing"] == 0, name
    assert size["mask_decoding"]["masks"] > 3000
    assert {t["target"] for t in document["targets"]} == {
        "qlik_ct incremental / full build",
        "peak memory (GiB)",
    }
    text = (results / "benchmark.md").read_text()
    assert "| 3,000 | 300 | Qlik __ct |" in text
    assert size["ratios"]["qlik_ct"]["nothing_new_over_full"] is None
    assert (results / "benchmark.png").read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "work" / "3000" / "state").exists()  # scratch data removed
