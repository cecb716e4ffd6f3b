{% macro default__partitioned_chain_columns() %}
    {#- The columns a parquet chain adds after version_columns' own: its
        partition column, last. -#}
    {{ return(['written_in_run']) }}
{% endmacro %}
