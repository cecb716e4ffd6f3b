{% macro configured_columns_fingerprint(table_name) %}
    {#- What follow_configured_columns checks a table's stored columns against,
        as one short text: the MD5 of its configured column names (lower case,
        in their order). Two runs with the same fingerprint check the same
        thing. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {{ return(local_md5(cfg.column_names | map('lower') | join(','))) }}
{% endmacro %}
