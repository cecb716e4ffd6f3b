{% macro parsed_kafka_landings(source_format, parsed, suffix) %}
    {#- The rows of a Kafka format's model of parsed landings
        (base_qlik_kafka__parsed_messages, base_debezium__parsed_events): the
        messages of every landing table of `source_format` landed within this
        run's processing ranges (their union), parsed once by
        `parsed(relation)`, with the landing table's name; from the beginning
        when the run builds a model of one of the format's groups from scratch
        (group_built_from_scratch: its readers, each table's change log and the
        format's shared models, are among them). `suffix` names each landing
        table's CTE. -#}
    {%- set relations = cdcflow.landing_relations(source_format) -%}
    {%- set ranges = [] -%}
    {%- set from_start = [] -%}
    {%- for table_name in cdcflow.tables_of_format(source_format) -%}
        {%- do ranges.append(cdcflow.processing_range(table_name)) -%}
        {%- if cdcflow.group_built_from_scratch(table_name) -%}{%- do from_start.append(table_name) -%}{%- endif -%}
    {%- endfor %}

with
{%- for landing in relations %}

{{ landing.name }}_{{ suffix }} as (

    select
        '{{ landing.name }}' as raw_table,
        parsed.*
    from ({{ parsed(landing.relation) }}) as parsed
    where {{ cdcflow.landed_in_range(ranges, from_start | length > 0) }}

),
{%- endfor %}

final as (
    {%- for landing in relations %}

    select * from {{ landing.name }}_{{ suffix }}
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from final
{% endmacro %}
