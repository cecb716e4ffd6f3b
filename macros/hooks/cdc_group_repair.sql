{% macro cdc_group_repair(table_name) %}
    {#- Before a range is processed again (TFREDO, ILUPDATE after a run that did
        not end): the change log's partitions written by the interrupted run are
        registered (a kill between writing files and adding the partition to the
        metastore hides them), so its anti-join sees every change already logged.
        The versioned table is left as it is: its model rebuilds it from the
        change log beside it and swaps it in (versions_rebuilt_in_this_run), once
        the change log has succeeded, so the marts stay readable. On Delta Lake
        and Iceberg a write that did not commit left nothing to repair. -#}
    {%- set change_log = cdcflow.model_relation(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- if change_log is not none and cdcflow.table_format() == 'parquet' -%}
        {%- do run_query('alter table ' ~ change_log ~ ' recover partitions') -%}
    {%- endif -%}
{% endmacro %}
