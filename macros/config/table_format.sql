{% macro table_format() %}
    {#- The one place that reads var cdcflow_table_format: the table format of the
        change logs, version chains and marts (delta, iceberg or parquet). The
        launcher reads the same var to give the Spark session the format's jars
        and catalog (launcher/table_format.py). -#}
    {%- set table_format = var('cdcflow_table_format', 'delta') | string | lower -%}
    {%- if table_format not in ['delta', 'iceberg', 'parquet'] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: var cdcflow_table_format is '" ~ table_format ~ "'; use one of: delta, iceberg, parquet."
        ) }}
    {%- endif -%}
    {{ return(table_format) }}
{% endmacro %}
