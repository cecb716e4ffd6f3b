"""A dbt run in its own process, for the fault-injection test to kill.

    python -m tests.e2e.fault_worker STATE_DIR SCHEMA BATCH|- [--dump] -- DBT_ARGS...

Builds the embedded Spark on STATE_DIR, lands the named batch of
``tests.e2e.test_fault_injection.BATCHES`` into SCHEMA_raw (``-``: none),
invokes dbt on integration_tests/ (its log on stdout, one JSON event per line when asked with
``--log-format json``), then with ``--dump`` prints the tables the test compares
as one JSON line starting with ``DUMP``. Exits 0 when dbt succeeded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    separator = argv.index("--")
    options, dbt_args = argv[:separator], argv[separator + 1 :]
    state_dir, schema, batch = Path(options[0]), options[1], options[2]
    from launcher.dbt_invoke import invoke_dbt
    from launcher.spark import build_session
    from tests.e2e import test_fault_injection as workload
    from tests.e2e.helpers import INTEGRATION_DIR, env

    spark = build_session(state_dir=state_dir, master="local[2]")
    if batch != "-":
        workload.land(spark, f"{schema}_raw", workload.BATCHES[batch])
    with env(CDCFLOW_SCHEMA=schema):
        result = invoke_dbt(dbt_args, state_dir=state_dir, project_dir=INTEGRATION_DIR)
    if "--dump" in options:
        print("DUMP " + json.dumps(workload.dump(spark, schema)), flush=True)
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
