{% macro scd1_current(table_name) %}
    {#- Body of <table>_current (SCD1): one row per live key, its latest version,
        in the table format's layout (layout_macro): on Delta Lake and Iceberg
        a table a run merges into (merged_current_model), on parquet a view of
        the chain's open partitions (partitioned_current_model). With the
        table's `deletes: flag`, a deleted key stays: its open link is the
        delete, with the values the key had before it, is_deleted true and
        deleted_at the delete's commit time (is_deleted false and deleted_at
        null for the others). -#}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.layout_macro('current_model')(table_name)) }}
{%- endmacro %}
