{% macro incremental_value(query) %}
    {#- The one value `query` returns, as a SQL literal, evaluated when the model
        runs: a literal lets Spark prune files, partitions and row groups, which a
        scalar subquery does not. At parse time and in unit tests (where `this` is
        a fixture) it stays a scalar subquery. -#}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {%- set value = run_query(query).columns[0].values()[0] -%}
        {%- if value is none -%}
            {{ return('null') }}
        {%- elif value is string -%}
            {{ return("'" ~ value ~ "'") }}
        {%- elif value.hour is defined -%}
            {{ return("timestamp'" ~ value.strftime('%Y-%m-%d %H:%M:%S.%f') ~ "'") }}
        {%- elif value.year is defined -%}
            {{ return("date'" ~ value.strftime('%Y-%m-%d') ~ "'") }}
        {%- else -%}
            {{ return(value | string) }}
        {%- endif -%}
    {%- endif -%}
    {{ return('(' ~ query ~ ')') }}
{% endmacro %}
