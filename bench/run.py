"""The benchmark: per size, on the same generated data, (1) a full dbt build of
the Qlik ``__ct`` table's change log, versions, ``_current`` and ``_history``;
(2) an incremental run after landing 1 % more changes; (3) the hand-written
PySpark baseline (bench/baseline.py) on the same data, its tables checked equal
to the pipeline's; (4) change-mask decoding, native SQL vs Python UDF. Each
step is its own process, measured from the OS (bench/measure.py). Writes
benchmark.json, benchmark.md and benchmark.png to --results.

    python -m bench.run --sizes 1M,3M,10M            # the README's benchmark
    python -m bench.run --sizes 2k --results DIR     # the CI smoke run
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import subprocess
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from bench import measure, report
from bench.project import PROJECT_DIR, workload_project
from bench.workload import TABLE, Workload, table_config

RAW_SCHEMA = "bench_raw"
SCHEMA = "bench"


def parse_size(text: str) -> int:
    """'10M' -> 10_000_000, '2k' -> 2_000, '1500' -> 1_500."""
    units = {"k": 1_000, "m": 1_000_000}
    text = text.strip().lower()
    try:
        if text[-1:] in units:
            return int(float(text[:-1]) * units[text[-1]])
        return int(text)
    except ValueError:
        raise ValueError(f"a size is a number of changes such as 1M, 250k or 5000, got {text!r}") from None


def machine() -> dict:
    memory = next(
        (
            line.split()[1]
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        "0",
    )
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    from importlib.metadata import version

    return {
        "cpus": os.cpu_count(),
        "cpu_model": cpu,
        "memory_gib": round(int(memory) / 1024 / 1024, 1),
        "os": platform.platform(),
        "python": platform.python_version(),
        "java": java[0] if java else "",
        "pyspark": version("pyspark"),
        "dbt_core": version("dbt-core"),
        "dbt_spark": version("dbt-spark"),
        "spark_driver_memory": os.environ.get("CDCFLOW_DRIVER_MEMORY", "4g"),
    }


class Step:
    """Runs the measured processes of one size; stops at the first failure."""

    def __init__(self, work: Path):
        self.work = work

    def __call__(self, name: str, command: list[str]) -> measure.Measured:
        env = {**os.environ, "CDCFLOW_SCHEMA": SCHEMA, "PYTHONPATH": str(PROJECT_DIR)}
        result = measure.run(command, log=self.work / "logs" / f"{name}.log", env=env)
        print(f"  {name:<18} {result.wall_s:>9.1f} s   peak {result.peak_tree_rss_mib:>8.0f} MiB", flush=True)
        if result.returncode != 0:
            tail = "\n".join(result.output.splitlines()[-40:])
            raise SystemExit(f"benchmark step {name} failed (exit {result.returncode}):\n{tail}")
        return result

    @staticmethod
    def summary(result: measure.Measured) -> dict:
        return {
            "wall_s": result.wall_s,
            "peak_rss_mib": result.peak_tree_rss_mib,
            "peak_single_process_rss_mib": result.peak_process_rss_mib,
        }


def _checked(result: measure.Measured) -> dict:
    line = next(line for line in result.output.splitlines() if line.startswith("BENCH_CHECK "))
    return json.loads(line.removeprefix("BENCH_CHECK "))


def bench_size(changes: int, work: Path, workload_options: dict) -> dict:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    workload = Workload(changes=changes, **workload_options)
    columns = list(workload.table_columns)
    state, data, project = work / "state", work / "data", workload_project(work / "project")
    dbt_vars = json.dumps(
        {"cdcflow_raw_schema": RAW_SCHEMA, "cdcflow_tables": {TABLE: table_config(workload)}}
    )
    python, step = sys.executable, Step(work)
    options = [f"--{k.replace('_', '-')}={v}" for k, v in asdict(workload).items()]
    generate = [
        python,
        "-m",
        "bench.workload",
        "--out",
        str(data),
        "--state-dir",
        str(state),
        "--schema",
        RAW_SCHEMA,
    ]
    dbt_run = [
        python,
        "-m",
        "launcher.cli",
        "dbt",
        "--state-dir",
        str(state),
        "--project-dir",
        str(project),
        "--",
        "run",
        "--vars",
        dbt_vars,
    ]
    baseline = [python, "-m", "bench.baseline", "--raw", str(data / "raw"), "--columns", json.dumps(columns)]
    check = [
        python,
        "-m",
        "bench.check",
        "--state-dir",
        str(state),
        "--project-dir",
        str(project),
        "--vars",
        dbt_vars,
        "--schema",
        SCHEMA,
        "--columns",
        json.dumps(columns),
    ]

    print(f"{changes:,} changes", flush=True)
    generated = step("generate", [*generate, *options, "--batch", "main"])
    full = step("dbt_full_build", dbt_run)
    base = step("baseline", [*baseline, "--out", str(work / "baseline")])
    first_check = _checked(step("check_full", [*check, "--baseline", str(work / "baseline")]))
    appended = step("land_increment", [*generate, *options, "--batch", "increment"])
    incremental = step("dbt_incremental", dbt_run)
    step("baseline_final", [*baseline, "--out", str(work / "baseline_final")])
    final_check = _checked(
        step(
            "check_incremental",
            [
                *check,
                "--baseline",
                str(work / "baseline_final"),
                "--truth",
                str(data / "truth" / "current"),
                "--decode",
            ],
        )
    )
    increment_changes = workload.changes - workload.main_changes
    return {
        "changes": changes,
        "keys": workload.key_slots,
        "main_batch_changes": workload.main_changes,
        "increment_changes": increment_changes,
        "workload": asdict(workload),
        "generate": Step.summary(generated),
        "land_increment": Step.summary(appended),
        "full_build": {**Step.summary(full), "changes_per_s": round(workload.main_changes / full.wall_s)},
        "incremental": {
            **Step.summary(incremental),
            "changes_per_s": round(increment_changes / incremental.wall_s),
        },
        "baseline": {**Step.summary(base), "changes_per_s": round(workload.main_changes / base.wall_s)},
        "mask_decoding": final_check["mask_decoding"],
        "checks": {
            **{f"full_{k}": v for k, v in first_check["checks"].items()},
            **{f"incremental_{k}": v for k, v in final_check["checks"].items()},
        },
        "ratios": {
            "full_over_baseline": round(full.wall_s / base.wall_s, 2),
            "incremental_over_full": round(incremental.wall_s / full.wall_s, 3),
            "udf_over_native": final_check["mask_decoding"]["udf_over_native"],
        },
    }


def growth(sizes: list[dict], step: str) -> float | None:
    """The exponent k of time ~ size^k between the smallest and largest size (1 = linear)."""
    if len(sizes) < 2:
        return None
    small, large = sizes[0], sizes[-1]
    return round(
        math.log(large[step]["wall_s"] / small[step]["wall_s"])
        / math.log(large["changes"] / small["changes"]),
        2,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="1M,3M,10M", help="comma-separated change counts (default 1M,3M,10M)"
    )
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / "bench" / "scratch", help="scratch folder")
    parser.add_argument("--results", type=Path, default=PROJECT_DIR / "bench" / "results")
    parser.add_argument("--columns", type=int, default=Workload.columns)
    parser.add_argument("--seed", type=int, default=Workload.seed)
    parser.add_argument("--keep", action="store_true", help="keep the scratch data of each size")
    args = parser.parse_args(argv)
    sizes = sorted(parse_size(s) for s in args.sizes.split(","))
    results = []
    for changes in sizes:
        work = args.work / f"{changes}"
        results.append(bench_size(changes, work, {"columns": args.columns, "seed": args.seed}))
        if not args.keep:
            shutil.rmtree(work / "data", ignore_errors=True)
            shutil.rmtree(work / "state", ignore_errors=True)
    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": "python -m bench.run " + " ".join(argv if argv is not None else sys.argv[1:]),
        "machine": machine(),
        "sizes": results,
        "growth_exponent": {
            step: growth(results, step) for step in ("full_build", "incremental", "baseline")
        },
    }
    failed = {
        f"{r['changes']}: {name}": c
        for r in results
        for name, c in r["checks"].items()
        if c["unexpected"] or c["missing"]
    }
    document["all_checks_passed"] = not failed
    report.write(document, args.results)
    print(report.markdown(document))
    if failed:
        print(f"tables differ: {json.dumps(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
