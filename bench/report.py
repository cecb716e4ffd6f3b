"""The benchmark's results as files: benchmark.json, benchmark.md (tables)
and benchmark.png (wall time against size: full build, incremental, baseline)."""

from __future__ import annotations

import json
from pathlib import Path


def _mib(value: float | None) -> str:
    return "" if value is None else f"{value / 1024:.2f} GiB"


def markdown(document: dict) -> str:
    m = document["machine"]
    lines = [
        "# cdcflow benchmark",
        "",
        f"Run {document['generated_at']} with `{document['command']}`",
        f"on {m['cpus']} CPUs ({m['cpu_model']}), "
        f"{m['memory_gib']} GiB; {m['java']}; PySpark {m['pyspark']}, dbt-core {m['dbt_core']}, "
        f"dbt-spark {m['dbt_spark']}; Spark driver memory {m['spark_driver_memory']}, local[*].",
        "",
        "Wall time of each step's process (JVM start and dbt parse included), changes per second, and peak",
        "memory (resident set of the whole process tree: Python, JVM, UDF workers).",
        "",
        "| changes | keys | step | wall (s) | changes/s | peak memory |",
        "|---:|---:|---|---:|---:|---:|",
    ]
    for size in document["sizes"]:
        for step in ("full_build", "incremental", "baseline"):
            r = size[step]
            changes = size["increment_changes"] if step == "incremental" else size["main_batch_changes"]
            lines.append(
                f"| {size['changes']:,} | {size['keys']:,} | {step.replace('_', ' ')} ({changes:,}) | "
                f"{r['wall_s']:.1f} | {r['changes_per_s']:,} | {_mib(r['peak_rss_mib'])} |"
            )
    lines += [
        "",
        "| changes | full / baseline | incremental / full | mask decoding UDF / native (s) | tables equal |",
        "|---:|---:|---:|---:|---|",
    ]
    for size in document["sizes"]:
        r, d = size["ratios"], size["mask_decoding"]
        equal = all(not c["unexpected"] and not c["missing"] for c in size["checks"].values())
        lines.append(
            f"| {size['changes']:,} | {r['full_over_baseline']:.2f} | {r['incremental_over_full']:.3f} | "
            f"{r['udf_over_native']:.1f} ({d['udf_s']:.1f} / {d['native_s']:.1f}) | "
            f"{'yes' if equal else 'NO'} |"
        )
    growth = document["growth_exponent"]
    if any(v is not None for v in growth.values()):
        lines += [
            "",
            "Growth from the smallest to the largest size, as the exponent k of time ~ size^k (1 = linear): "
            + ", ".join(f"{step.replace('_', ' ')} {k}" for step, k in growth.items() if k is not None)
            + ".",
        ]
    return "\n".join(lines) + "\n"


def plot(document: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    sizes = [s["changes"] for s in document["sizes"]]
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    for step, label in (
        ("full_build", "dbt full build"),
        ("incremental", "dbt incremental (+1 %)"),
        ("baseline", "hand-written PySpark"),
    ):
        axes.plot(sizes, [s[step]["wall_s"] for s in document["sizes"]], marker="o", label=label)
    axes.set_xlabel("changes")
    axes.set_ylabel("wall time (s)")
    axes.set_ylim(bottom=0)
    axes.set_title(f"cdcflow benchmark, {document['machine']['cpus']} CPUs")
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)


def write(document: dict, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "benchmark.json").write_text(json.dumps(document, indent=2) + "\n")
    (folder / "benchmark.md").write_text(markdown(document))
    plot(document, folder / "benchmark.png")
