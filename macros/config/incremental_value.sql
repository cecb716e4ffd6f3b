{% macro incremental_value(query, data_type) %}
    {#- The one value `query` returns, as a SQL literal of `data_type`, evaluated
        when the model runs: a literal lets Spark prune files, partitions and row
        groups, which a scalar subquery does not. Always typed: a null answer (an
        empty table, a change with no commit time) renders `cast(null as
        <data_type>)`, never a bare `null`, which Spark cannot put in an
        expression such as `valid_to >= null - interval 60 minutes`. At parse
        time and in unit tests (where `this` is a fixture) it stays a scalar
        subquery. -#}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {%- set value = run_query(query).columns[0].values()[0] -%}
        {%- if value is none -%}
            {{ return('cast(null as ' ~ data_type ~ ')') }}
        {%- elif value is string -%}
            {{ return("cast('" ~ value | replace("'", "\\'") ~ "' as " ~ data_type ~ ")") }}
        {%- elif value.hour is defined -%}
            {{ return("timestamp'" ~ value.strftime('%Y-%m-%d %H:%M:%S.%f') ~ "'") }}
        {%- elif value.year is defined -%}
            {{ return("date'" ~ value.strftime('%Y-%m-%d') ~ "'") }}
        {%- else -%}
            {{ return('cast(' ~ value | string ~ ' as ' ~ data_type ~ ')') }}
        {%- endif -%}
    {%- endif -%}
    {{ return('cast((' ~ query ~ ') as ' ~ data_type ~ ')') }}
{% endmacro %}
