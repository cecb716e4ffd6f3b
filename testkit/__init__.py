"""cdcflow's test kit: simulated source tables, their changes, and the raw rows
each vendor lands for them, for the benchmark (bench/) and the tests (tests/).

* ``vendors``: how the vendors encode what both writers write (Qlik headers,
  change masks and types, Kafka landing columns, Debezium's envelope);
* ``workload`` and ``formats``: a change stream generated with Spark at the
  benchmark's sizes, landed in every format (parquet files);
* ``change_history``: a small history in pure Python, written row by row in
  every format, for the end-to-end tests;
* ``project``: a dbt project installing cdcflow and onboarding tables, as a
  user's does.

Modules import only those listed before them (vendors first), never bench/ or
tests/."""
