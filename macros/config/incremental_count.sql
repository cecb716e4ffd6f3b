{% macro incremental_count(query) %}
    {#- The count `query` returns (one row, one column), as a number for the model's
        Jinja to decide with, evaluated when the model runs; none at parse time
        and in unit tests, where nothing is known (a caller then takes the general
        path). Never rendered into SQL: incremental_value renders values. -#}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {{ return(run_query(query).columns[0].values()[0] | int(0)) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
