"""`cdcflow onboard`: the files a table needs, generated from its vars entry."""

import re
from pathlib import Path

import pytest
import yaml

from launcher.cli import main
from launcher.onboard import GENERATED, OnboardingError, check, project_files, write
from launcher.spark import PROJECT_DIR

ACCOUNTS = {
    "format": "qlik_ct",
    "change_table": "accounts__ct",
    "full_load_table": "accounts",
    "key": ["account_id"],
    "columns": {"account_id": "int", "balance": "decimal(12,2)"},
    "descriptions": {"balance": "Balance in EUR."},
}


def project(tmp_path: Path, tables: dict, name: str = "my_project") -> Path:
    (tmp_path / "dbt_project.yml").write_text(
        yaml.safe_dump({"name": name, "vars": {"cdcflow_tables": tables}})
    )
    return tmp_path


@pytest.mark.parametrize(
    "project_dir", [PROJECT_DIR, PROJECT_DIR / "integration_tests"], ids=["root", "integration_tests"]
)
def test_the_repository_models_are_what_its_configuration_generates(project_dir):
    assert check(project_dir) == []


def test_a_table_is_one_vars_entry_and_one_command(tmp_path):
    root = project(tmp_path, {"accounts": ACCOUNTS})
    written = write(root)
    assert sorted(p.removeprefix("wrote models/") for p in written) == sorted(
        [
            "staging/qlik_ct/stg_qlik_ct__accounts_changes.sql",
            "staging/qlik_ct/stg_qlik_ct__accounts_full_load.sql",
            "staging/qlik_ct/_qlik_ct__sources.yml",
            "staging/qlik_ct/_qlik_ct__models.yml",
            "intermediate/qlik_ct/int_accounts__before_images_waiting.sql",  # state across runs
            "intermediate/qlik_ct/int_accounts__changes_logged.sql",
            "intermediate/qlik_ct/int_accounts__versioned.sql",
            "intermediate/qlik_ct/_qlik_ct__models.yml",
            "marts/qlik_ct/accounts_current.sql",
            "marts/qlik_ct/accounts_history.sql",
            "marts/qlik_ct/_qlik_ct__models.yml",
            "wrote selectors.yml",
        ]
    )
    models = root / "models"
    assert (models / "marts/qlik_ct/accounts_current.sql").read_text() == (
        f"{{# {GENERATED} #}}\n{{{{ cdcflow.scd1_current('accounts') }}}}\n"
    )
    assert (
        "cdcflow.qlik_ct_change_log('accounts')"
        in (models / "intermediate/qlik_ct/int_accounts__changes_logged.sql").read_text()
    )
    sources = yaml.safe_load((models / "staging/qlik_ct/_qlik_ct__sources.yml").read_text())["sources"]
    assert [s["name"] for s in sources] == ["qlik_ct"]
    assert [t["name"] for t in sources[0]["tables"]] == ["accounts__ct", "accounts"]
    assert sources[0]["config"] == {
        "enabled": "{{ project_name == 'my_project' }}",
        "loaded_at_field": "{{ var('cdcflow_landed_at', '_metadata.file_modification_time') }}",
    }
    marts = yaml.safe_load((models / "marts/qlik_ct/_qlik_ct__models.yml").read_text())["models"]
    history, current = marts
    assert history["name"] == "accounts_history"
    assert history["config"] == {
        "enabled": "{{ project_name == 'my_project' }}",
        "materialized": "view",
        "contract": {"enforced": True},
        "meta": {"cdcflow_table": "accounts"},
    }
    # the hooks find a table's models by their meta; the change log reads the
    # staging tables of its run only (a run selecting it must select them)
    staging = yaml.safe_load((models / "staging/qlik_ct/_qlik_ct__models.yml").read_text())["models"]
    assert {m["name"]: m["config"]["meta"] for m in staging} == {
        "stg_qlik_ct__accounts_changes": {"cdcflow_table": "accounts", "cdcflow_read_this_run": True},
        "stg_qlik_ct__accounts_full_load": {"cdcflow_table": "accounts", "cdcflow_read_this_run": True},
    }
    columns = {c["name"]: c for c in history["columns"]}
    assert list(columns)[:2] == ["account_id", "balance"]
    assert columns["balance"] == {
        "name": "balance",
        "data_type": "decimal(12,2)",
        "description": "Balance in EUR.",
    }
    assert columns["account_id"]["data_tests"] == ["not_null"]
    assert columns["account_id"]["description"] == "`account_id` of the source table (primary key)."
    grain = {"cdcflow.unique_combination": {"arguments": {"columns": ["account_id", "change_order"]}}}
    assert grain in history["data_tests"]
    assert [c["name"] for c in current["columns"]] == [
        "account_id",
        "balance",
        "last_operation",
        "last_change_order",
        "last_changed_at",
        "last_transaction_id",
    ]
    assert all(c["description"] for m in marts for c in m["columns"])
    assert check(root) == []
    assert write(root) == []  # nothing to do the second time


def test_check_lists_what_differs_from_the_configuration(tmp_path):
    root = project(tmp_path, {"accounts": ACCOUNTS})
    write(root)
    models = root / "models"
    (models / "marts/qlik_ct/accounts_history.sql").unlink()
    (models / "marts/qlik_ct/accounts_current.sql").write_text(f"{{# {GENERATED} #}}\nselect 1\n")
    (models / "marts/qlik_ct/old_current.sql").write_text(f"{{# {GENERATED} #}}\nselect 2\n")
    (models / "marts/qlik_ct/hand_written.sql").write_text("select 3\n")  # not ours: left alone
    assert check(root) == [
        "models/marts/qlik_ct/accounts_current.sql differs from what its vars entry generates",
        "models/marts/qlik_ct/accounts_history.sql is missing",
        "models/marts/qlik_ct/old_current.sql belongs to no configured table",
    ]
    write(root)
    assert check(root) == []
    assert not (models / "marts/qlik_ct/old_current.sql").exists()
    assert (models / "marts/qlik_ct/hand_written.sql").exists()


def test_every_format_declares_its_models(tmp_path):
    tables = {
        "products": {
            "format": "qlik_kafka",
            "source_schema": "SALES",
            "source_table": "PRODUCTS",
            "key": "id",
            "columns": {"id": "int", "name": "string"},
        },
        "orders": {
            "format": "debezium",
            "topic": "server1.dbo.orders",
            "key": ["id"],
            "columns": {"id": "int"},
        },
        "emp": {
            "format": "dirxml",
            "key": ["empno"],
            "columns": {"empno": "decimal(8,0)", "fname": "string"},
        },
    }
    files = project_files("p", tables)
    sql = sorted(path for path in files if path.endswith(".sql"))
    assert sql == sorted(
        [
            "staging/qlik_kafka/stg_qlik_kafka__products_messages.sql",
            "intermediate/qlik_kafka/int_products__messages_decoded.sql",  # the metadata lookup
            "staging/debezium/stg_debezium__orders_events.sql",
            "staging/dirxml/stg_dirxml__emp_events.sql",
            "intermediate/dirxml/int_emp__events_decided.sql",  # the outcome of each event
            *(
                f"intermediate/{f}/int_{t}__{m}.sql"
                for f, t in FORMATS_OF.items()
                for m in ("changes_logged", "versioned")
            ),
            *(f"marts/{f}/{t}_{m}.sql" for f, t in FORMATS_OF.items() for m in ("current", "history")),
        ]
    )
    dirxml_sources = yaml.safe_load(files["staging/dirxml/_dirxml__sources.yml"])["sources"][0]
    assert [t["name"] for t in dirxml_sources["tables"]] == ["dirxml_event_log", "emp"]  # query-back table
    kafka = yaml.safe_load(files["marts/qlik_kafka/_qlik_kafka__models.yml"])["models"]
    assert kafka[0]["description"].startswith(
        "Every version of each `products` (Qlik Kafka, SALES.PRODUCTS) row"
    )
    staging = {
        model["name"]: model["config"]["materialized"]
        for fmt in FORMATS_OF
        for model in yaml.safe_load(files[f"staging/{fmt}/_{fmt}__models.yml"])["models"]
    }
    # written once per run where the change log and the quarantine both read it (a table
    # left as it is in a run with nothing new for its group)
    assert staging == {
        "stg_qlik_kafka__products_messages": "ephemeral",
        "stg_debezium__orders_events": "cdcflow_table",
        "stg_dirxml__emp_events": "cdcflow_table",
    }
    # and the model between staging and change log: the Qlik Kafka messages read by the metadata
    # in effect (written once per run), the DirXML events decided (appended to: state across
    # runs), both read by the change log in the run that writes them
    for fmt in ("qlik_kafka", "dirxml"):
        (prepared,) = yaml.safe_load(files[f"intermediate/{fmt}/_{fmt}__models.yml"])["models"][:1]
        assert (prepared["name"], prepared["config"]["materialized"]) == {
            "qlik_kafka": ("int_products__messages_decoded", "cdcflow_table"),
            "dirxml": ("int_emp__events_decided", "cdcflow_incremental"),
        }[fmt]
        assert prepared["config"]["meta"]["cdcflow_read_this_run"] is True
    dirxml = yaml.safe_load(files["marts/dirxml/_dirxml__models.yml"])["models"]
    operation = next(c for c in dirxml[0]["columns"] if c["name"] == "operation")
    assert operation["data_tests"][1] == {"accepted_values": {"arguments": {"values": ["I", "U"]}}}


FORMATS_OF = {"qlik_kafka": "products", "debezium": "orders", "dirxml": "emp"}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({**ACCOUNTS, "format": "oracle"}, "table 'accounts' has format 'oracle'; expected one of: qlik_ct,"),
        ({**ACCOUNTS, "columns": {}}, "table 'accounts' needs `columns:`"),
        (
            {**ACCOUNTS, "key": []},
            "table 'accounts' needs `key:`, the list of its primary-key columns among account_id, balance",
        ),
        (
            {**ACCOUNTS, "key": ["acount_id"]},
            "key column 'acount_id' of table 'accounts' is not among its columns (account_id, balance)",
        ),
        (
            {**ACCOUNTS, "except_columns": ["account_id"]},
            "except_columns of table 'accounts' names 'account_id', a key column: the key is always carried",
        ),
        (
            {**ACCOUNTS, "except_columns": ["balanse"]},
            "except_columns of table 'accounts' names 'balanse', which is not among its columns "
            "(account_id, balance)",
        ),
        ({**ACCOUNTS, "deletes": "keep"}, "table 'accounts' has deletes 'keep'; expected remove (a delete"),
        (
            {**ACCOUNTS, "valid_to_current": 9999},
            "table 'accounts' has valid_to_current 9999: give a SQL expression of a timestamp as text",
        ),
        (
            {**ACCOUNTS, "track_history_columns": ["balance"], "track_history_except_columns": []},
            "table 'accounts' sets both track_history_columns and track_history_except_columns; keep one",
        ),
        (
            {**ACCOUNTS, "track_history_columns": ["account_id"]},
            "track_history_columns of table 'accounts' names 'account_id', a key column: a key's versions all"
            " have the same key",
        ),
        (
            {**ACCOUNTS, "track_history_except_columns": "balanse"},
            "track_history_except_columns of table 'accounts' names 'balanse', which the table does not carry"
            " (its columns but the key: balance)",
        ),
        # checked by the run's table_config, which onboard renders: refused before anything is written
        (
            {**ACCOUNTS, "format": "debezium", "decimal_handling_mode": "exact"},
            "table 'accounts' has decimal_handling_mode 'exact'; use Debezium's value: precise, double or"
            " string.",
        ),
        (
            {**ACCOUNTS, "format": "dirxml", "table_key_names": {"acount_id": "pk_account"}},
            "table_key_names of table 'accounts' names 'acount_id', which is not a key column (account_id).",
        ),
        (
            {**ACCOUNTS, "skip_unchanged_versions": "yes"},
            "table 'accounts' has skip_unchanged_versions yes; expected true or false",
        ),
    ],
)
def test_a_bad_entry_says_what_to_change(tmp_path, entry, message):
    with pytest.raises(OnboardingError, match=re.escape(message)):
        write(project(tmp_path, {"accounts": entry}))


SPLIT_HINT = (
    " YAML splits a flow mapping ({...}) at every comma: `amount: decimal(12,2)` in one becomes"
    " type 'decimal(12' and a column '2)' with no type; quote the type (\"decimal(12,2)\") or write one"
    " column per line (vars.cdcflow_tables)."
)


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (
            # the README's example as first printed, read by YAML
            "{invoice_id: bigint, amount: decimal(12,2), status: string}",
            "table 'invoices' column 'amount' has type 'decimal(12', whose brackets do not close.",
        ),
        ("{invoice_id: bigint, amount: }", "table 'invoices' column 'amount' has no type"),
        (
            "{invoice_id: bigint, tags: array<string}",
            "table 'invoices' column 'tags' has type 'array<string'",
        ),
        ("{invoice_id: bigint, 2): int}", "table 'invoices' column '2)' is not a column name."),
    ],
)
def test_a_column_type_yaml_split_names_the_column_and_the_cause(tmp_path, columns, message):
    entry = {"format": "qlik_ct", "key": ["invoice_id"], "columns": yaml.safe_load(columns)}
    with pytest.raises(OnboardingError) as raised:
        write(project(tmp_path, {"invoices": entry}))
    assert str(raised.value).startswith(message) and str(raised.value).endswith(SPLIT_HINT)


@pytest.mark.parametrize("document", ["README.md", "docs/onboarding.md"])
def test_the_documented_example_onboards_as_printed(tmp_path, document):
    """The `vars` block of the document, taken verbatim: its decimal type stays whole."""
    text = (PROJECT_DIR / document).read_text()
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "cdcflow_tables:" in b]
    tables = yaml.safe_load(block)["vars"]["cdcflow_tables"]
    assert tables["invoices"]["columns"] == {
        "invoice_id": "bigint",
        "amount": "decimal(12,2)",
        "status": "string",
    }
    write(project(tmp_path, tables))
    contract = yaml.safe_load((tmp_path / "models/marts/qlik_ct/_qlik_ct__models.yml").read_text())
    current = next(m for m in contract["models"] if m["name"] == "invoices_current")
    assert {c["name"]: c.get("data_type") for c in current["columns"]}["amount"] == "decimal(12,2)"


def test_the_marts_carry_the_options_of_the_entry(tmp_path):
    """except_columns leaves columns out of the marts' contracts; deletes: flag adds
    is_deleted and deleted_at to _current and D to the operations; valid_to_current
    is in valid_to's description."""
    entry = {
        **ACCOUNTS,
        "columns": {"account_id": "int", "balance": "decimal(12,2)", "pin": "string"},
        "except_columns": ["pin"],
        "deletes": "flag",
        "valid_to_current": "timestamp'9999-12-31 00:00:00'",
    }
    files = project_files("my_project", {"accounts": entry})
    history, current = yaml.safe_load(files["marts/qlik_ct/_qlik_ct__models.yml"])["models"]
    assert [c["name"] for c in current["columns"]] == [
        *("account_id", "balance", "last_operation", "last_change_order", "last_changed_at"),
        *("last_transaction_id", "is_deleted", "deleted_at"),
    ]
    assert "pin" not in [c["name"] for c in history["columns"]]
    operation = next(c for c in history["columns"] if c["name"] == "operation")
    assert operation["data_tests"][1] == {"accepted_values": {"arguments": {"values": ["L", "I", "U", "D"]}}}
    valid_to = next(c for c in history["columns"] if c["name"] == "valid_to")
    assert "timestamp'9999-12-31 00:00:00' while current (valid_to_current)" in valid_to["description"]


def test_the_history_says_which_updates_open_a_version(tmp_path):
    for option, value, says in (
        ("track_history_columns", ["balance"], "an update only when it changes balance"),
        ("track_history_except_columns", ["balance"], "an update only when it changes a column but balance"),
        ("skip_unchanged_versions", True, "an update only when it changes a value"),
    ):
        files = project_files("my_project", {"accounts": {**ACCOUNTS, option: value}})
        history, _ = yaml.safe_load(files["marts/qlik_ct/_qlik_ct__models.yml"])["models"]
        assert says in " ".join(history["description"].split()), option


def test_the_command(tmp_path, capsys):
    root = project(tmp_path, {"accounts": ACCOUNTS})
    assert main(["onboard", "--project-dir", str(root), "--check"]) == 1
    assert "models/marts/qlik_ct/accounts_current.sql is missing" in capsys.readouterr().err
    assert main(["onboard", "accounts", "--project-dir", str(root)]) == 0
    assert "wrote models/marts/qlik_ct/accounts_current.sql" in capsys.readouterr().out
    assert main(["onboard", "--project-dir", str(root), "--check"]) == 0
    assert main(["onboard", "acounts", "--project-dir", str(root)]) == 2
    assert "no table acounts in vars.cdcflow_tables" in capsys.readouterr().err


def test_onboard_warns_of_a_raw_table_the_warehouse_lacks(tmp_path, capsys, monkeypatch):
    """A misspelt raw table reads like a landing delay in a run: onboard names its
    entry when the embedded warehouse holds the raw schema but not the table."""
    monkeypatch.delenv("CDCFLOW_SCHEMA", raising=False)
    (tmp_path / "p").mkdir()
    root = project(tmp_path / "p", {"accounts": {**ACCOUNTS, "change_table": "acounts__ct"}})
    state = tmp_path / "state"
    argv = ["onboard", "--project-dir", str(root), "--state-dir", str(state)]
    assert main(argv) == 0  # no warehouse yet: nothing to say
    assert "warning" not in capsys.readouterr().err
    raw = state / "spark-warehouse" / "cdcflow_raw.db"
    for landed in ("accounts__ct", "accounts"):
        (raw / landed).mkdir(parents=True)
    assert main(argv) == 0
    assert capsys.readouterr().err.splitlines() == [
        "cdcflow onboard: warning: vars.cdcflow_tables.accounts.change_table: no table"
        f" cdcflow_raw.acounts__ct in the warehouse ({raw}): a misspelt name, or not landed yet"
    ]
    assert main([*argv, "--raw-schema", "elsewhere"]) == 0  # a schema it cannot see
    assert "warning" not in capsys.readouterr().err


def test_feeds_declare_their_freshness_on_the_landing_time(tmp_path):
    hourly = {"warn_after": {"count": 15, "period": "minute"}}
    root = project(
        tmp_path,
        {
            "accounts": ACCOUNTS,
            "emp": {
                "format": "dirxml",
                "key": ["empno"],
                "columns": {"empno": "int"},
                "query_back_table": "emp",
            },
            "orders": {"format": "debezium", "key": ["id"], "columns": {"id": "int"}, "freshness": hourly},
        },
    )
    write(root)

    def source(fmt):
        (only,) = yaml.safe_load((root / f"models/staging/{fmt}/_{fmt}__sources.yml").read_text())["sources"]
        assert only["config"]["loaded_at_field"] == (
            "{{ var('cdcflow_landed_at', '_metadata.file_modification_time') }}"
        )
        return {t["name"]: t["config"]["freshness"] for t in only["tables"]}

    day = {"warn_after": {"count": 1, "period": "hour"}, "error_after": {"count": 1, "period": "day"}}
    # the change table is a feed; the full load is written once
    assert source("qlik_ct") == {"accounts__ct": day, "accounts": None}
    # the event log is a feed; the query-back table holds the rows as they are now
    assert source("dirxml") == {"dirxml_event_log": day, "emp": None}
    # the vars entry's own thresholds
    assert source("debezium") == {"debezium_events": hourly}


def test_a_selector_per_table_unless_the_project_has_its_own(tmp_path):
    root = project(tmp_path, {"accounts": ACCOUNTS})
    write(root)
    (selector,) = yaml.safe_load((root / "selectors.yml").read_text())["selectors"]
    assert selector["name"] == "accounts"
    assert selector["definition"] == {
        "union": [
            {"method": "fqn", "value": "accounts_current", "parents": True},
            {"method": "fqn", "value": "accounts_history", "parents": True},
        ]
    }
    assert check(root) == []
    (root / "selectors.yml").write_text("selectors: []\n")  # the user's own
    assert write(root) == [
        "left selectors.yml alone (yours): add a selector per table there if you want them"
    ]
    assert (root / "selectors.yml").read_text() == "selectors: []\n"
    assert check(root) == []
