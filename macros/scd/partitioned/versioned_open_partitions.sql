{% macro versioned_open_partitions(relation) %}
    {#- The open partitions ('open-<run>') of an int_<table>__versioned table, from
        the metastore (no data read); empty before it exists and in unit tests. -#}
    {%- if not execute or model.resource_type == 'unit_test' or adapter.get_relation(relation.database, relation.schema, relation.identifier) is none -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set partitions = [] -%}
    {%- for row in run_query('show partitions ' ~ relation) -%}
        {%- set value = row[0] | replace('written_in_run=', '') -%}
        {%- if value.startswith('open-') -%}
            {%- do partitions.append(value) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(partitions | sort) }}
{% endmacro %}
