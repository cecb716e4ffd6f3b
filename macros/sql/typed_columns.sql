{% macro typed_columns(cfg) %}
    {#- The table's configured columns, each cast to its configured Spark type. -#}
    {%- for column, data_type in cfg.columns.items() %}
        cast({{ column }} as {{ data_type }}) as {{ column }}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}
