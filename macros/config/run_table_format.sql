{% macro run_table_format() %}
    {#- The file format of a table each run rebuilds whole and reads within the run
        (materialization cdcflow_table): plain parquet, whose `create table as`
        writes no log, snapshot or commit that such a table would never use, except
        on Iceberg, whose Hive catalog drops a plain table without its files (the
        next run's `create table as` then finds its folder). The same rule
        `cdcflow onboard` writes into the generated staging models' config
        (launcher/onboard.py, RUN_TABLE_FORMAT); docs/operations.md, "Table formats". -#}
    {{ return('iceberg' if cdcflow.table_format() == 'iceberg' else 'parquet') }}
{% endmacro %}
