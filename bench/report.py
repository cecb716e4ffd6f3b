"""The benchmark's results as files: benchmark.json, benchmark.md (tables) and
benchmark.png (wall time against size, log scales: each format's full build and
incremental run, the baseline, and the targets)."""

from __future__ import annotations

import json
from pathlib import Path

FORMAT_LABELS = {
    "qlik_ct": "Qlik __ct",
    "qlik_kafka": "Qlik Kafka",
    "debezium": "Debezium",
    "dirxml": "DirXML",
}


def _gib(value: float | None) -> str:
    return "" if value is None else f"{value / 1024:.2f} GiB"


def _ratio(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _seconds(step: dict | None) -> str:
    """A step's wall time, empty when it was not run (``--quick``: no run with nothing new)."""
    return "" if step is None else f"{step['wall_s']:.1f}"


def size_label(changes: int) -> str:
    """1000000 -> '1M', 3000 -> '3k', 2500000 -> '2.5M'."""
    for unit, scale in (("M", 1_000_000), ("k", 1_000)):
        if changes >= scale:
            return f"{changes / scale:g}{unit}"
    return str(changes)


def markdown(document: dict) -> str:
    m = document["machine"]
    lines = [
        "# cdcflow benchmark",
        "",
        f"Run {document['generated_at']} of commit `{document.get('commit', '?')}` with "
        f"`{document['command']}`",
        f"on {m['cpus']} CPUs ({m['cpu_model']}), "
        f"{m['memory_gib']} GiB; {m['java']}; PySpark {m['pyspark']}, dbt-core {m['dbt_core']}, "
        f"dbt-spark {m['dbt_spark']}; Spark driver memory {m['spark_driver_memory']}, local[*].",
        f"cdcflow's tables and the baseline's in {document.get('table_format', 'parquet')}.",
        "",
        "Wall time of each step's process (JVM start and dbt parse included), changes per second, ratios",
        "within the run, and peak memory (resident set of the whole process tree: Python, JVM, UDF workers).",
        "The full build reads the main batch (99 %); nothing new is a run with nothing landed since the",
        "last; the incremental run reads the last 1 % with its late and duplicated deliveries.",
        "",
        "| changes | keys | format | full build (s) | changes/s | / baseline | / __ct | nothing new (s) "
        "| incremental (s) | incremental / full | peak memory |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in document["sizes"]:
        for source_format, steps in size["formats"].items():
            r = size["ratios"][source_format]
            peak = max(s["peak_rss_mib"] for s in steps.values())
            label = FORMAT_LABELS.get(source_format, source_format)
            lines.append(
                f"| {size['changes']:,} | {size['keys']:,} | {label} | "
                f"{steps['full_build']['wall_s']:.1f} | {steps['full_build']['changes_per_s']:,} | "
                f"{_ratio(r['full_over_baseline'])} | {_ratio(r['full_over_qlik_ct'])} | "
                f"{_seconds(steps.get('nothing_new'))} | {steps['incremental']['wall_s']:.1f} | "
                f"{_ratio(r['incremental_over_full'], 3)} | {_gib(peak)} |"
            )
        if "baseline" in size:
            b = size["baseline"]
            lines.append(
                f"| {size['changes']:,} | {size['keys']:,} | hand-written baseline | {b['wall_s']:.1f} | "
                f"{b['changes_per_s']:,} | 1.00 | | | | | {_gib(b['peak_rss_mib'])} |"
            )
    over_thrift = [
        (size, source_format, steps)
        for size in document["sizes"]
        for source_format, steps in size["formats"].items()
        if "thrift_nothing_new" in steps or "thrift_incremental" in steps
    ]
    if over_thrift:
        lines += [
            "",
            "The same runs by plain dbt against `cdcflow serve` (`--target thrift`), beside the embedded",
            "ones (`cdcflow dbt`, JVM start included). The server's start is not counted and its memory is",
            "not in the peak; nothing new runs after a run of each format that is not counted (a warm",
            "server and dbt parse), the incremental run on a server started for it on a copy of the state",
            "the embedded one started from:",
            "",
            "| changes | format | nothing new (s) | over Thrift (s) | / full | incremental (s) "
            "| over Thrift (s) | / full |",
            "|---:|---|---:|---:|---:|---:|---:|---:|",
        ]
        for size, source_format, steps in over_thrift:
            r = size["ratios"][source_format]
            lines.append(
                f"| {size['changes']:,} | {FORMAT_LABELS.get(source_format, source_format)} | "
                f"{_seconds(steps.get('nothing_new'))} | {_seconds(steps.get('thrift_nothing_new'))} | "
                f"{_ratio(r.get('thrift_nothing_new_over_full'), 3)} | "
                f"{_seconds(steps.get('incremental'))} | {_seconds(steps.get('thrift_incremental'))} | "
                f"{_ratio(r.get('thrift_incremental_over_full'), 3)} |"
            )
    lines += _comparison(document)
    lines += [
        "",
        "| changes, table format | tables equal | checks | mask decoding UDF / native (s) |",
        "|---:|---|---:|---:|",
    ]
    for size in document["sizes"] + document.get("compared", {}).get("sizes", []):
        equal = all(not c["unexpected"] and not c["missing"] for c in size["checks"].values())
        d = size.get("mask_decoding")
        decoding = f"{d['udf_over_native']:.1f} ({d['udf_s']:.1f} / {d['native_s']:.1f})" if d else ""
        measured = " ".join(
            [f"{size['changes']:,}", *([size["table_format"]] if "table_format" in size else [])]
        )
        lines.append(f"| {measured} | {'yes' if equal else 'NO'} | {len(size['checks'])} | {decoding} |")
    growth = {k: v for k, v in document["growth_exponent"].items() if v is not None}
    if growth:
        lines += [
            "",
            "Growth from the smallest to the largest size, as the exponent k of time ~ size^k (1 = linear): "
            + ", ".join(f"{step.replace('_', ' ')} {k}" for step, k in growth.items())
            + ".",
        ]
    same = document.get("same_increment")
    if same:
        lines += [
            "",
            "The same increment applied to tables of each size (Qlik __ct):",
            "",
            "| table (changes) | increment (changes) | late changes | incremental (s) |",
            "|---:|---:|---:|---:|",
        ]
        for run in same["runs"]:
            lines.append(
                f"| {run['changes']:,} | {run['increment_changes']:,} | {run['late_changes']:,} | "
                f"{run['incremental']['wall_s']:.1f} |"
            )
        lines.append(f"\nLargest over smallest table: {same['ratio']:.2f}.")
    if document.get("targets"):
        lines += ["", "| target (largest size) | reached | limit | met |", "|---|---:|---:|---|"]
        for t in document["targets"]:
            lines.append(f"| {t['target']} | {t['value']} | {t['limit']} | {'yes' if t['met'] else 'NO'} |")
    return "\n".join(lines) + "\n"


def _over(measured: dict | None, compared: dict | None) -> str:
    """A step's wall time in the measured format over the compared one's."""
    if not measured or not compared:
        return ""
    return f"{measured['wall_s'] / compared['wall_s']:.2f}"


def _comparison(document: dict) -> list[str]:
    """The run's table format beside the one of ``--compare-with``, size by size:
    each step's seconds in both and their ratio (below 1: the run's format is faster)."""
    if "compared" not in document:
        return []
    ours, theirs = document.get("table_format", "parquet"), document["compared"]["table_format"]
    lines = [
        "",
        f"The same steps with {theirs} tables (cdcflow's and the baseline's), in the same run, from the same",
        f"generated stream: seconds in {ours} / in {theirs}, and the first over the second (below 1:",
        f"{ours} is faster; the peak is the largest of the format's steps).",
        "",
        "| changes | format | full build | / | nothing new | / | incremental | / | peak memory | / |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    compared = {size["changes"]: size for size in document["compared"]["sizes"]}
    for size in document["sizes"]:
        other = compared.get(size["changes"])
        if other is None:
            continue
        rows = [(f, size["formats"][f], other["formats"].get(f, {})) for f in size["formats"]]
        if "baseline" in size and "baseline" in other:
            rows.append(
                ("hand-written baseline", {"full_build": size["baseline"]}, {"full_build": other["baseline"]})
            )
        for source_format, steps, their_steps in rows:
            cells = []
            for step in ("full_build", "nothing_new", "incremental"):
                a, b = steps.get(step), their_steps.get(step)
                cells.append(f"{_seconds(a)} / {_seconds(b)}" if a and b else "")
                cells.append(_over(a, b))
            peak = max((s["peak_rss_mib"] for s in steps.values()), default=None)
            their_peak = max((s["peak_rss_mib"] for s in their_steps.values()), default=None)
            cells.append(f"{_gib(peak)} / {_gib(their_peak)}" if peak and their_peak else "")
            cells.append(f"{peak / their_peak:.2f}" if peak and their_peak else "")
            label = FORMAT_LABELS.get(source_format, source_format)
            lines.append(f"| {size['changes']:,} | {label} | " + " | ".join(cells) + " |")
    return lines


def plot(document: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    sizes = [s["changes"] for s in document["sizes"]]
    figure, axes = pyplot.subplots(figsize=(8, 5))
    colors = pyplot.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, source_format in enumerate(document["sizes"][0]["formats"]):
        measured = [s for s in document["sizes"] if source_format in s["formats"]]
        label = FORMAT_LABELS.get(source_format, source_format)
        color = colors[index % len(colors)]
        for step, style, what in (
            ("full_build", "-", "full build"),
            ("incremental", "--", "incremental +1 %"),
        ):
            axes.plot(
                [s["changes"] for s in measured],
                [s["formats"][source_format][step]["wall_s"] for s in measured],
                style,
                marker="o",
                color=color,
                label=f"{label} {what}",
            )
    if all("baseline" in s for s in document["sizes"]):
        baseline = [s["baseline"]["wall_s"] for s in document["sizes"]]
        axes.plot(sizes, baseline, "-", marker="s", color="black", label="hand-written PySpark")
        axes.plot(
            sizes,
            [1.5 * b for b in baseline],
            ":",
            color="black",
            label="target: full build ≤ 1.5 × baseline",
        )
        if "qlik_ct" in document["sizes"][0]["formats"]:
            axes.plot(
                sizes,
                [0.10 * s["formats"]["qlik_ct"]["full_build"]["wall_s"] for s in document["sizes"]],
                ":",
                color="grey",
                label="target: incremental ≤ 0.10 × __ct full build",
            )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xticks(sizes)
    axes.set_xticklabels([size_label(s) for s in sizes])
    axes.minorticks_off()
    axes.set_xlabel("changes")
    axes.set_ylabel("wall time (s)")
    axes.set_title(
        f"cdcflow benchmark, {document['machine']['cpus']} CPUs, commit {document.get('commit', '?')}"
    )
    axes.grid(True, alpha=0.3, which="both")
    axes.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)


def write(document: dict, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "benchmark.json").write_text(json.dumps(document, indent=2) + "\n")
    (folder / "benchmark.md").write_text(markdown(document))
    plot(document, folder / "benchmark.png")
