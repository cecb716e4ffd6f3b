{% macro incremental_strategy() %}
    {#- How a version chain is written by a run, from the table format
        (table_format): `merge` on Delta Lake and Iceberg (a MERGE, one atomic
        commit: materialization cdcflow_versioned), `insert_overwrite` on plain
        parquet (partitions a run adds, merge-on-read: versioned_model). -#}
    {{ return('insert_overwrite' if cdcflow.table_format() == 'parquet' else 'merge') }}
{% endmacro %}
