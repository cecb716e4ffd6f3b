{% macro incremental_strategy() %}
    {#- The one place that decides how history tables are written incrementally. -#}
    {%- set strategy = var('cdcflow_incremental_strategy', 'insert_overwrite') -%}
    {%- if strategy not in ['insert_overwrite', 'merge'] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: var cdcflow_incremental_strategy is '" ~ strategy ~ "'; use 'insert_overwrite' "
            ~ "(plain parquet) or 'merge' (Delta Lake / Iceberg / Hudi tables only)."
        ) }}
    {%- endif -%}
    {{ return(strategy) }}
{% endmacro %}
