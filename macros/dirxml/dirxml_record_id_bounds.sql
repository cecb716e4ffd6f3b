{% macro dirxml_record_id_bounds(ctes, relation) %}
    {#- A condition on record_id that holds for every record_id of ``relation``, the
        last of the CTEs ``ctes`` (a `with` clause): 'record_id between <least> and
        <greatest>' as literals, looked up before the query that uses it (a literal
        lets Delta Lake's and Iceberg's file statistics skip the files outside it),
        'false' when it has no record_id, 'true' at parse time. -#}
    {%- if not execute -%}{{ return('true') }}{%- endif -%}
    {%- set query -%}
        {{ ctes }}
        select min(record_id), max(record_id) from {{ relation }}
    {%- endset -%}
    {%- set row = run_query(query)[0] -%}
    {%- if row[0] is none -%}{{ return('false') }}{%- endif -%}
    {{ return('record_id between ' ~ row[0] ~ ' and ' ~ row[1]) }}
{% endmacro %}
