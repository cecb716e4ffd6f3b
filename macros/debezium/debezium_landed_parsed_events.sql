{% macro debezium_landed_parsed_events(relation) %}
    {#- The events of the landing table `relation` this run parsed
        (base_debezium__parsed_events). -#}
    select * except (raw_table)
    from {{ ref('base_debezium__parsed_events') }}
    where raw_table = '{{ relation.identifier }}'
{%- endmacro %}
