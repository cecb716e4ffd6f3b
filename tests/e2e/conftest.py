"""Fixtures of the end-to-end tests that several test files share."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def workload_runs(tmp_path_factory, integration_project):
    """Per kill-sweep workload (tests/e2e/fault_workloads.py), made once on first
    use, its runs of batch 1 and 2 one after the other in a process of their own
    (tests/e2e/fault_worker.py): (its project, its state folder, the state after
    batch 1 kept aside, the tables after batch 1, the tables after batch 2). The
    runs of batch 1 and 2 are never killed:
    the kill sweep compares its recovered runs with the second, the cross-format
    equivalence checks both. ``table_format``: the workload's tables in that format
    (vars.cdcflow_table_format), made apart from the others."""
    from tests.e2e import fault_worker
    from tests.e2e.fault_workloads import WORKLOADS

    del integration_project  # installed: the qlik_ct workload runs in it
    made = {}

    def runs(name: str, table_format: str = "parquet"):
        if (name, table_format) not in made:
            workload = WORKLOADS[name]
            # every run uses the same state path: the metastore holds absolute locations
            base = tmp_path_factory.mktemp(f"fault_{workload.name}_{table_format}")
            project = workload.project(base)
            state, snapshot = base / "state", base / "after-batch-1"
            first, second = fault_worker.run_batches(
                workload,
                project,
                state,
                ["1", "2"],
                snapshot=snapshot,
                checks=workload.checks is not None,
                table_format=table_format,
                # what a reader sees during the run: on Delta Lake and Iceberg, a commit's before or after
                watch=workload.watch is not None and table_format != "parquet",
            )
            made[(name, table_format)] = (project, state, snapshot, first, second)
        return made[(name, table_format)]

    return runs
