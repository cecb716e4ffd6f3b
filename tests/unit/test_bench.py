"""The benchmark's pure parts: sizes, growth, the report, and memory measured from the OS."""

import json
import sys

import pytest

from bench import measure, report
from bench.run import Step, growth, growth_exponents, parse_size, ratios, target_results
from testkit.workload import Workload, table_config


@pytest.mark.parametrize(
    ("text", "changes"), [("1M", 1_000_000), ("250k", 250_000), ("2.5m", 2_500_000), ("900", 900)]
)
def test_sizes(text, changes):
    assert parse_size(text) == changes


def test_a_size_that_is_not_a_number_says_what_is_expected():
    with pytest.raises(
        ValueError, match="a size is a number of changes such as 1M, 250k or 5000, got 'lots'"
    ):
        parse_size("lots")


def test_workload_defaults_are_twenty_mixed_columns_and_a_tenth_as_many_keys():
    workload = Workload(changes=1_000_000)
    columns = workload.table_columns
    assert len(columns) == 20 and list(columns)[0] == "id"
    assert set(columns.values()) >= {
        "int",
        "bigint",
        "string",
        "decimal(12,2)",
        "date",
        "timestamp",
        "boolean",
    }
    assert workload.key_slots == 100_000
    assert workload.main_changes == 990_000
    assert table_config(workload)["key"] == ["id"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"changes": 5}, "changes must be at least 10, got 5"),
        ({"columns": 1}, "columns must be at least 2"),
        ({"late": 1.5}, "late is a fraction between 0 and 1, got 1.5"),
        ({"deletes": 0.3, "key_changes": 0.3}, "deletes \\+ key_changes must stay under 0.5"),
    ],
)
def test_workload_refuses_bad_parameters(options, message):
    with pytest.raises(ValueError, match=message):
        Workload(**options)


def _size(changes, full, incremental, baseline, kafka_full=None):
    def step(wall, counted=changes):
        return {"wall_s": wall, "changes_per_s": round(counted / wall), "peak_rss_mib": 2048.0}

    size = {
        "changes": changes,
        "keys": changes // 10,
        "main_batch_changes": changes * 99 // 100,
        "increment_changes": changes // 100,
        "formats": {
            "qlik_ct": {
                "full_build": step(full),
                "nothing_new": step(incremental / 2),
                "incremental": step(incremental, changes // 100),
            },
            "qlik_kafka": {
                "full_build": step(kafka_full or full),
                "nothing_new": step(incremental / 2),
                "incremental": step(incremental, changes // 100),
            },
        },
        "baseline": step(baseline),
        "mask_decoding": {"udf_s": 10.0, "native_s": 2.0, "udf_over_native": 5.0},
        "checks": {
            "qlik_ct_history_vs_baseline": {"rows": 5, "expected_rows": 5, "unexpected": 0, "missing": 0}
        },
    }
    size["ratios"] = ratios(size)
    return size


def test_ratios_per_format_against_the_baseline_and_qlik_ct():
    size = _size(1_000_000, 100.0, 20.0, 50.0, kafka_full=180.0)
    assert size["ratios"] == {
        "qlik_ct": {
            "full_over_baseline": 2.0,
            "full_over_qlik_ct": 1.0,
            "incremental_over_full": 0.2,
            "nothing_new_over_full": 0.1,
        },
        "qlik_kafka": {
            "full_over_baseline": 3.6,
            "full_over_qlik_ct": 1.8,
            "incremental_over_full": 0.111,
            "nothing_new_over_full": 0.056,
        },
        "udf_over_native": 5.0,
    }


def test_growth_is_the_exponent_of_time_against_size():
    sizes = [_size(1_000_000, 100.0, 20.0, 50.0), _size(10_000_000, 1000.0, 40.0, 800.0)]
    assert growth(sizes, lambda s: s["formats"]["qlik_ct"]["full_build"]["wall_s"]) == 1.0
    assert growth_exponents(sizes) == {
        "baseline": 1.2,
        "qlik_ct_full_build": 1.0,
        "qlik_ct_incremental": 0.3,
        "qlik_kafka_full_build": 1.0,
        "qlik_kafka_incremental": 0.3,
    }
    assert growth(sizes[:1], lambda s: 1.0) is None


def _document(sizes, same_increment=None):
    document = {
        "generated_at": "2026-11-21T00:00:00+00:00",
        "command": "python -m bench.run --sizes 1M,10M",
        "commit": "abc123",
        "machine": {
            "cpus": 2,
            "cpu_model": "test cpu",
            "memory_gib": 23.5,
            "java": "openjdk 17",
            "pyspark": "4.3.0",
            "dbt_core": "1.11.16",
            "dbt_spark": "1.11.0",
            "spark_driver_memory": "4g",
        },
        "sizes": sizes,
        "growth_exponent": growth_exponents(sizes),
    }
    if same_increment:
        document["same_increment"] = same_increment
    document["targets"] = target_results(document)
    return document


def test_targets_are_checked_at_the_largest_size():
    sizes = [_size(1_000_000, 100.0, 20.0, 50.0), _size(10_000_000, 1000.0, 40.0, 800.0, kafka_full=1600.0)]
    sizes[1]["baseline"]["peak_rss_mib"] = 9216.0  # the hand-written job's peak is not cdcflow's
    runs = [{"incremental": {"wall_s": 30.0}}, {"incremental": {"wall_s": 40.0}}]
    targets = {
        t["target"]: (t["value"], t["met"])
        for t in _document(sizes, {"runs": runs, "ratio": 1.33})["targets"]
    }
    assert targets == {
        "qlik_ct full build / baseline": (1.25, True),
        "qlik_ct incremental / full build": (0.04, True),
        "qlik_ct nothing new / full build": (0.02, True),
        "qlik_kafka incremental / full build": (0.025, True),
        "qlik_kafka nothing new / full build": (0.013, True),
        "qlik_kafka full build / qlik_ct full build": (1.6, False),
        "peak memory (GiB)": (2.0, True),
        "qlik_ct_full_build growth exponent": (1.0, True),
        "qlik_kafka_full_build growth exponent": (1.2, False),
        "same increment: largest / smallest table": (1.33, True),
    }


def test_report_tables_and_plot(tmp_path):
    sizes = [_size(1_000_000, 100.0, 20.0, 50.0), _size(10_000_000, 1000.0, 40.0, 800.0)]
    report.write(_document(sizes), tmp_path)
    text = (tmp_path / "benchmark.md").read_text()
    assert "of commit `abc123`" in text
    assert (
        "| 10,000,000 | 1,000,000 | Qlik __ct | 1000.0 | 10,000 | 1.25 | 1.00 | 20.0 | 40.0 | 0.040 "
        "| 2.00 GiB |" in text
    )
    assert "| 1,000,000 | 100,000 | hand-written baseline | 50.0 | 20,000 | 1.00 | | | | | 2.00 GiB |" in text
    assert "| 1,000,000 | yes | 1 | 5.0 (10.0 / 2.0) |" in text
    assert "qlik ct full build 1.0, qlik ct incremental 0.3" in text
    assert "| qlik_ct full build / baseline | 1.25 | 1.5 | yes |" in text
    assert (tmp_path / "benchmark.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert '"full_over_baseline": 1.25' in (tmp_path / "benchmark.json").read_text()


def test_the_thrift_variant_is_reported_beside_the_embedded_runs(tmp_path):
    size = _size(1_000_000, 100.0, 20.0, 50.0)
    size["formats"]["qlik_ct"]["thrift_nothing_new"] = {"wall_s": 4.0, "peak_rss_mib": 300.0}
    size["formats"]["qlik_ct"]["thrift_incremental"] = {"wall_s": 12.0, "peak_rss_mib": 300.0}
    size["ratios"] = ratios(size)
    assert size["ratios"]["qlik_ct"]["thrift_nothing_new_over_full"] == 0.04
    assert size["ratios"]["qlik_ct"]["thrift_incremental_over_full"] == 0.12
    assert "thrift_incremental_over_full" not in size["ratios"]["qlik_kafka"]
    report.write(_document([size]), tmp_path)
    text = (tmp_path / "benchmark.md").read_text()
    assert "| 1,000,000 | Qlik __ct | 10.0 | 4.0 | 0.040 | 20.0 | 12.0 | 0.120 |" in text
    assert "| 1,000,000 | Qlik Kafka |" not in text


def test_a_format_left_out_of_the_largest_size_misses_its_targets_and_is_drawn_where_measured(tmp_path):
    """A resumed run narrowed by ``--formats`` (e.g. a format that could not
    be measured at 10M): no growth for it, one missed target saying so, and
    its lines drawn over the sizes that have it."""
    largest = _size(10_000_000, 1000.0, 40.0, 800.0)
    del largest["formats"]["qlik_kafka"], largest["ratios"]["qlik_kafka"]
    document = _document([_size(1_000_000, 100.0, 20.0, 50.0), largest])
    assert set(document["growth_exponent"]) == {"baseline", "qlik_ct_full_build", "qlik_ct_incremental"}
    missed = [t for t in document["targets"] if t["target"].startswith("qlik_kafka")]
    assert missed == [
        {"target": "qlik_kafka at the largest size", "value": "not measured", "limit": "", "met": False}
    ]
    report.write(document, tmp_path)
    text = (tmp_path / "benchmark.md").read_text()
    assert "| qlik_kafka at the largest size | not measured |  | NO |" in text


def test_size_labels():
    assert [report.size_label(n) for n in (1_000_000, 3_000_000, 10_000_000, 2_500_000, 3_000, 900)] == [
        "1M",
        "3M",
        "10M",
        "2.5M",
        "3k",
        "900",
    ]


def test_peak_memory_is_measured_over_the_process_tree(tmp_path):
    # the parent holds little; its child holds 300 MiB: the tree's peak counts the child
    child = "import time; block = bytearray(300 * 2**20); time.sleep(1.5)"
    parent = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}], check=True)"
    result = measure.run([sys.executable, "-c", parent], log=tmp_path / "log.txt")
    assert result.returncode == 0
    assert 300 <= result.peak_tree_rss_mib < 600
    assert result.wall_s >= 1.5


def test_a_fork_sharing_its_parents_pages_is_counted_once(tmp_path):
    # the parent touches 300 MiB, then forks (as the JVM does to run a shell command):
    # the child shares those pages until it runs a new program
    script = (
        "import os, time; block = bytearray(300 * 2**20); pid = os.fork()\n"
        "if pid == 0: time.sleep(1.5); os._exit(0)\n"
        "os.waitpid(pid, 0)"
    )
    result = measure.run([sys.executable, "-c", script], log=tmp_path / "log.txt")
    assert result.returncode == 0
    assert 300 <= result.peak_tree_rss_mib < 500


def test_a_failing_command_is_reported_with_its_output(tmp_path):
    result = measure.run(
        [sys.executable, "-c", "import sys; print('bad input'); sys.exit(3)"], log=tmp_path / "l"
    )
    assert result.returncode == 3
    assert "bad input" in result.output


def test_a_resumed_benchmark_keeps_the_steps_already_measured(tmp_path):
    first = Step(tmp_path)
    measured = first("check", [sys.executable, "-c", "print('noise'); print('BENCH_CHECK', 1)"])
    assert measured.returncode == 0
    # resumed: the recorded step is not run again (this command would fail)
    again = Step(tmp_path, resume=True)("check", [sys.executable, "-c", "import sys; sys.exit(5)"])
    assert (again.wall_s, again.returncode) == (measured.wall_s, 0)
    assert again.output == "BENCH_CHECK 1"
    # not resumed: every step runs
    with pytest.raises(SystemExit, match="benchmark step check failed \\(exit 5\\)"):
        Step(tmp_path)("check", [sys.executable, "-c", "import sys; sys.exit(5)"])


def test_event_log_summary_sums_each_statement_and_lists_the_slowest(tmp_path):
    from bench.event_log import summary

    start = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart"
    end = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd"
    comment = '/* {"app": "dbt", "node_id": "model.bench.int_t__changes_logged"} */'
    insert_plan = (
        "== Physical Plan ==\nExecute InsertIntoHadoopFsRelationCommand (2)\n\n"
        "(2) Execute InsertIntoHadoopFsRelationCommand\nInput: []\n"
        "Arguments: file:/w/spark-warehouse/bench.db/int_t__versioned, false, Parquet\n"
    )
    task = {
        "Executor Run Time": 2_000,
        "Executor CPU Time": 1_500_000_000,
        "Shuffle Write Metrics": {"Shuffle Bytes Written": 1024**3},
        "Disk Bytes Spilled": 0,
    }
    events = [
        # a statement whose text (over Thrift) carries dbt's node id
        {
            "Event": start,
            "executionId": 0,
            "rootExecutionId": 0,
            "description": comment + " insert into t",
            "time": 0,
        },
        {"Event": "SparkListenerJobStart", "Stage IDs": [3], "Properties": {"spark.sql.execution.id": "0"}},
        {"Event": "SparkListenerTaskEnd", "Stage ID": 3, "Task Metrics": task},
        {"Event": end, "executionId": 0, "time": 1_000},
        # a statement (embedded: no text) whose nested execution writes a table and runs its tasks
        {
            "Event": start,
            "executionId": 1,
            "rootExecutionId": 1,
            "description": "sql at <unknown>:0",
            "physicalPlanDescription": "== Physical Plan ==\nExecute CreateDataSourceTableAsSelectCommand\n",
            "time": 2_000,
        },
        {
            "Event": start,
            "executionId": 2,
            "rootExecutionId": 1,
            "description": "sql at <unknown>:0",
            "physicalPlanDescription": insert_plan,
            "time": 2_100,
        },
        {
            "Event": "SparkListenerJobStart",
            "Stage IDs": [4, 5],
            "Properties": {"spark.sql.execution.id": "2"},
        },
        *({"Event": "SparkListenerTaskEnd", "Stage ID": stage, "Task Metrics": task} for stage in (4, 5)),
        {"Event": end, "executionId": 2, "time": 5_900},
        {"Event": end, "executionId": 1, "time": 6_000},
        # a catalog command
        {
            "Event": start,
            "executionId": 3,
            "rootExecutionId": 3,
            "description": "sql at <unknown>:0",
            "physicalPlanDescription": "== Physical Plan ==\nShowTables (1)\n",
            "time": 7_000,
        },
        {"Event": end, "executionId": 3, "time": 7_500},
    ]
    log = tmp_path / "eventlog_v2_local-1" / "events_1_local-1"
    log.parent.mkdir()
    (log.parent / "appstatus_local-1").write_text("")
    log.write_text("\n".join(json.dumps(event) for event in events) + "\n")
    lines = summary(tmp_path, top=1).splitlines()
    assert lines[0] == "3 statements; wall 5.5 s, task 6.0 s, CPU 4.5 s"
    assert lines[4:7] == [
        "| bench.int_t__versioned | 1 | 4.0 | 4.0 | 3.0 | 2.00 | 0.00 |",
        "| model.bench.int_t__changes_logged | 1 | 1.0 | 2.0 | 1.5 | 1.00 | 0.00 |",
        "| (ShowTables) | 1 | 0.5 | 0.0 | 0.0 | 0.00 | 0.00 |",
    ]
    assert lines[-1] == (
        "- 4.0 s wall, 4.0 s task, 2 tasks, 2.00 GiB shuffled, 0.00 GiB spilled"
        " (bench.int_t__versioned): sql at <unknown>:0"
    )


def test_the_check_refuses_to_build_a_baseline_without_its_folder(tmp_path, capsys):
    from bench import check

    with pytest.raises(SystemExit):
        check.main(
            ["--state-dir", str(tmp_path), "--project-dir", str(tmp_path), "--vars", "{}", "--columns", "[]"]
            + ["--build-baseline-from", str(tmp_path)]
        )
    assert "--build-baseline-from needs --baseline (the folder to build it in)" in capsys.readouterr().err


def test_a_benchmark_without_qlik_ct_lands_its_stream_for_the_baseline(tmp_path, monkeypatch):
    """The baselines are built from the __ct stream's files: a run measuring other
    formats only still writes them (checked), and times no mask decoding (the
    decoders read the __ct table through the project, which has none)."""
    import bench.run

    commands = {}

    def step(self, name, command):
        commands[name] = command
        check = {"unexpected": 0, "missing": 0, "rows": 1, "expected_rows": 1}
        checks = {"dirxml_current_vs_baseline": check}
        output = "BENCH_CHECK " + json.dumps({"checks": checks}) if name.startswith("check") else ""
        return measure.Measured(command, 0, 1.0, 200.0, None, output)

    monkeypatch.setattr(bench.run.Step, "__call__", step)
    monkeypatch.setattr(bench.run, "workload_project", lambda *args: None)
    workload = Workload(changes=3000)
    result = bench.run.bench_size(3000, tmp_path, workload, ["dirxml"], quick=True)

    def option(name, flag):
        return commands[name][commands[name].index(flag) + 1]

    assert option("generate", "--formats") == option("land_increment", "--formats") == "dirxml,qlik_ct"
    assert option("check_incremental", "--formats") == "dirxml"
    assert "--decode" not in commands["check_incremental"]
    assert "mask_decoding" not in result
    assert set(result["formats"]) == {"dirxml"}


@pytest.mark.parametrize("table_format", ["delta", "parquet"])
def test_the_runs_and_the_baseline_write_the_table_format_measured(tmp_path, monkeypatch, table_format):
    """--table-format: the dbt runs' vars.cdcflow_table_format, the session every
    step serves (a Thrift server's too) and the format the baseline writes."""
    import bench.run

    commands, envs = {}, {}

    def step(self, name, command):
        commands[name], envs[name] = command, self.env(name)
        check = {"unexpected": 0, "missing": 0, "rows": 1, "expected_rows": 1}
        output = "BENCH_CHECK " + json.dumps({"checks": {"c": check}}) if name.startswith("check") else ""
        return measure.Measured(command, 0, 1.0, 200.0, None, output)

    monkeypatch.setattr(bench.run.Step, "__call__", step)
    monkeypatch.setattr(bench.run, "workload_project", lambda *args: None)
    result = bench.run.bench_size(
        3000, tmp_path, Workload(changes=3000), ["qlik_ct"], table_format=table_format
    )
    run_vars = json.loads(commands["full_build_qlik_ct"][commands["full_build_qlik_ct"].index("--vars") + 1])
    assert run_vars["cdcflow_table_format"] == table_format
    baseline = commands["baseline"]
    assert baseline[baseline.index("--table-format") + 1] == table_format
    assert {env["CDCFLOW_TABLE_FORMAT"] for env in envs.values()} == {table_format}
    assert result["table_format"] == table_format


def test_compare_with_measures_each_size_again_in_the_other_table_format(tmp_path, monkeypatch):
    """--compare-with parquet: every size again with parquet tables, in a scratch
    folder of its own, after the --table-format one; the report sets the two
    side by side and a check that differs in either fails the run."""
    import bench.run

    measured = []

    def bench_size(changes, work, workload, source_formats, **options):
        measured.append((changes, work.name, options["table_format"]))
        parquet = options["table_format"] == "parquet"
        size = _size(changes, 200.0 if parquet else 100.0, 40.0 if parquet else 10.0, 50.0)
        size["table_format"] = options["table_format"]
        return size

    monkeypatch.setattr(bench.run, "bench_size", bench_size)
    monkeypatch.setattr(bench.run, "commit", lambda: "abc123")
    monkeypatch.setattr(bench.run, "machine", lambda: _document([_size(1_000, 1.0, 1.0, 1.0)])["machine"])
    results = tmp_path / "results"
    argv = ["--sizes", "1M", "--formats", "qlik_ct,qlik_kafka", "--work", str(tmp_path / "work")]
    assert bench.run.main([*argv, "--results", str(results), "--compare-with", "parquet"]) == 0
    assert measured == [(1_000_000, "1000000", "delta"), (1_000_000, "1000000-parquet", "parquet")]
    document = json.loads((results / "benchmark.json").read_text())
    assert document["compared"]["table_format"] == "parquet"
    assert [size["table_format"] for size in document["compared"]["sizes"]] == ["parquet"]
    text = (results / "benchmark.md").read_text()
    assert "| 1,000,000 | Qlik __ct | 100.0 / 200.0 | 0.50 | 5.0 / 20.0 | 0.25 | 10.0 / 40.0 | 0.25 " in text
    assert "| 1,000,000 | hand-written baseline | 50.0 / 50.0 | 1.00 |" in text
    assert "| 1,000,000 parquet | yes | 1 |" in text

    with pytest.raises(SystemExit):
        bench.run.main([*argv, "--results", str(results), "--compare-with", "delta"])


def test_the_compared_format_takes_the_main_batch_the_first_run_left(tmp_path, monkeypatch):
    """--compare-with: the first format's run leaves hard links of its main batch
    and stream before its increment lands; the compared format's run takes them,
    their landing times moved forward by the time in between, and its generate
    step registers them instead of generating the stream again."""
    import os
    import time

    import bench.run

    commands = {}

    def step(self, name, command):
        commands[(self.work.name, name)] = command
        data = self.work / "data"
        if name == "generate" and "--register-only" not in command:
            for folder, file in (("raw/t", "main.parquet"), ("stream", "s.parquet")):
                (data / folder).mkdir(parents=True, exist_ok=True)
                (data / folder / file).write_text(folder)
            os.utime(data / "raw/t/main.parquet", (1_000_000.0, 1_000_000.0))
        if name == "land_increment":
            (data / "raw/t/increment.parquet").write_text("increment")
        check = {"unexpected": 0, "missing": 0, "rows": 1, "expected_rows": 1}
        output = "BENCH_CHECK " + json.dumps({"checks": {"c": check}}) if name.startswith("check") else ""
        return measure.Measured(command, 0, 1.0, 200.0, None, output)

    monkeypatch.setattr(bench.run.Step, "__call__", step)
    monkeypatch.setattr(bench.run, "workload_project", lambda *args: None)
    main_batch, workload = tmp_path / "main-batch", Workload(changes=3000)
    bench.run.bench_size(3000, tmp_path / "delta", workload, ["qlik_ct"], quick=True, main_batch=main_batch)
    left = main_batch / "raw" / "t"
    assert [p.name for p in left.iterdir()] == ["main.parquet"]  # not the increment
    assert (left / "main.parquet").stat().st_ino == (tmp_path / "delta/data/raw/t/main.parquet").stat().st_ino
    (main_batch / "left_at").write_text(repr(time.time() - 3600))  # an hour ago

    bench.run.bench_size(
        3000,
        tmp_path / "parquet",
        workload,
        ["qlik_ct"],
        quick=True,
        table_format="parquet",
        main_batch=main_batch,
        adopt_main_batch=True,
    )
    assert "--register-only" in commands[("parquet", "generate")]
    assert "--register-only" not in commands[("parquet", "land_increment")]
    raw = tmp_path / "parquet" / "data" / "raw" / "t"
    assert sorted(p.name for p in raw.iterdir()) == ["increment.parquet", "main.parquet"]
    assert abs((raw / "main.parquet").stat().st_mtime - (1_000_000 + 3600)) < 60
    assert (tmp_path / "parquet" / "data" / "stream" / "s.parquet").exists()
    assert not main_batch.exists()


def test_event_log_names_the_table_a_delta_statement_writes(tmp_path):
    from bench.event_log import WRITTEN

    replace = (
        "== Physical Plan ==\nAtomicReplaceTableAsSelect (1)\n\n\n(1) AtomicReplaceTableAsSelect\n"
        "Arguments: org.apache.spark.sql.delta.catalog.DeltaCatalog@1ef0522d, bench.dirxml_quarantine,"
        " WithCTE,"
        " TableSpec(Map(),Some(delta),Map(),None,None,None,None,false,List()), true\n"
    )
    assert ".".join(p for p in WRITTEN.search(replace).groups() if p) == "bench.dirxml_quarantine"
    merge = (
        "(2) MergeIntoCommand\nArguments: SubqueryAlias recomputed, SubqueryAlias stored,"
        " `spark_catalog`.`bench`.`int_t__versioned`, org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe\n"
    )
    assert ".".join(p for p in WRITTEN.search(merge).groups() if p) == "bench.int_t__versioned"
    append = (
        "(1) AppendDataExecV1\nArguments: DeltaTableV2(org.apache.spark.sql.classic.SparkSession@3c8ee929,"
        "file:/w/bench.db/q,Some(CatalogTable(\nCatalog: spark_catalog\nDatabase: bench\nTable: q\n"
        "Partition Provider: Catalog)),Some(bench.q),None,Map()), Project [a#1]\n"
    )
    assert ".".join(p for p in WRITTEN.search(append).groups() if p) == "bench.q"
