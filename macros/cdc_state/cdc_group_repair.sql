{% macro cdc_group_repair(table_name) %}
    {#- Before a range is processed again (TFREDO, ILUPDATE after a run that did
        not end): the change log's partitions written by the interrupted run are
        registered (a kill between writing files and adding the partition to the
        metastore hides them), so its anti-join sees every change already logged;
        the versioned table is dropped, so this run rebuilds it from the change
        log (a killed partition overwrite on parquet may have deleted the open
        partition without writing the new one). The change log is never dropped:
        it is what the rebuild reads. -#}
    {%- set change_log = adapter.get_relation(target.database, target.schema, 'int_' ~ table_name ~ '__changes_logged') -%}
    {%- if change_log is not none -%}
        {%- do run_query('alter table ' ~ change_log ~ ' recover partitions') -%}
    {%- endif -%}
    {%- set versioned = adapter.get_relation(target.database, target.schema, 'int_' ~ table_name ~ '__versioned') -%}
    {%- if versioned is not none -%}
        {%- do adapter.drop_relation(versioned) -%}
    {%- endif -%}
{% endmacro %}
