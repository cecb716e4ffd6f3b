{% macro versioned_model(table_name) %}
    {#- Body of int_<table>__versioned: the chain of every change of every key
        (versions and deletes), with validity, written incrementally in the
        table format's layout (layout_macro): merged_versioned_model on Delta
        Lake and Iceberg, partitioned_versioned_model on parquet. -#}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.layout_macro('versioned_model')(table_name)) }}
{% endmacro %}
