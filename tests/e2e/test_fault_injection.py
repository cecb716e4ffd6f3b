"""Crash safety: a dbt run killed (SIGKILL, the whole process group: dbt and its
Spark) at a point of the run; the next run finds its groups in TFSTART, takes
the same ranges again as TFREDO, repairs what the killed run may have left
half-written, and ends TFEND; its tables then equal those of a run that was
never killed, with no change lost or logged twice.

Workloads (tests/e2e/fault_workloads.py): ``qlik_ct`` (two Qlik `__ct` tables
of integration_tests/) and ``formats`` (one source table written in all four
formats: Qlik `__ct`, Qlik Kafka with a transaction held back across runs,
Debezium, and DirXML with its outcomes; its batch 2 carries the bad-input
census, tests/e2e/bad_inputs.py), each processed by `dbt run` in a
subprocess (tests/e2e/fault_worker.py). Batch 1 is processed cleanly once and
the state directory kept; each kill point starts from a copy, lands batch 2,
starts the run and kills it at the point, then runs again.

Kill points: before, during (1 s in, or at its end if it takes less) and after
each model, during the on-run-start and on-run-end hooks, and inside each
versioned model's write. On parquet, its partition overwrite (when its
.spark-staging directory appears), also with its open partitions deleted (the
worst a kill inside the write or a compaction's partition drop can leave). On
Delta Lake and Iceberg (the `formats` workload), its MERGE once a data file of
it is written and before its commit (a commit is atomic: nothing else to
damage). CI runs one point, on Delta Lake, the default table format: a kill
inside the qlik_ct workload's last chain's MERGE (a run of 11 models; killing and
redoing the formats workload's 31 took about 400 s of a CI worker). Its runs on
Delta are the ones Iceberg's comparison reads (tests/e2e/test_equivalence_on_iceberg.py,
on the same worker). CDCFLOW_FAULT_SWEEP=1 runs every point (80 on parquet, 37 on
each of Delta and Iceberg for the formats workload), and the workloads' fast points
(``Workload.points``) alone with CDCFLOW_FAULT_POINTS=fast: on parquet, lost open
partitions inside the qlik_ct workload's last chain (about 290 s on a CI machine,
which is why CI leaves it out).
"""

from __future__ import annotations

import pytest

from tests.e2e.fault_workloads import WORKLOADS
from tests.e2e.kill_points import assert_redone_losing_nothing
from tests.e2e.suite import FAST_FAULT_POINTS, FAULT_SWEEP

pytestmark = pytest.mark.spark

# the formats workload's points on Delta Lake and Iceberg are the sweep's; CI's Delta
# point is the qlik_ct workload's, whose runs on Delta Iceberg's comparison reads too
# (tests/e2e/test_equivalence_on_iceberg.py)
MERGE_FORMATS = ("delta", "iceberg") if FAULT_SWEEP else ()
POINTS = (
    [
        (workload, "parquet", point)
        for workload in WORKLOADS.values()
        for point in workload.points(FAULT_SWEEP)
    ]
    + [(WORKLOADS["qlik_ct"], "delta", point) for point in WORKLOADS["qlik_ct"].fast_merge_points]
    + [
        (WORKLOADS["formats"], table_format, point)
        for table_format in MERGE_FORMATS
        for point in WORKLOADS["formats"].points(FAULT_SWEEP, table_format)
    ]
)
LEFT_OUT = pytest.mark.skipif(
    not (FAULT_SWEEP or FAST_FAULT_POINTS),
    reason="parquet's kill points run with CDCFLOW_FAULT_SWEEP=1 or CDCFLOW_FAULT_POINTS=fast "
    "(CI: a kill inside the qlik_ct workload's last chain's MERGE on Delta Lake)",
)


@pytest.mark.parametrize(
    ("workload", "table_format", "point"),
    [
        pytest.param(
            workload,
            table_format,
            point,
            id=f"{workload.name}-{table_format}-" + "-".join(str(p) for p in point),
            marks=LEFT_OUT if table_format == "parquet" else (),
        )
        for workload, table_format, point in POINTS
    ],
)
def test_a_killed_run_is_redone_and_loses_nothing(workload_runs, workload, table_format, point):
    assert_redone_losing_nothing(workload_runs(workload.name, table_format), workload, table_format, point)
