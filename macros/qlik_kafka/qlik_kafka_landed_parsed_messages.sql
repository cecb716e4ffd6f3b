{% macro qlik_kafka_landed_parsed_messages(relation) %}
    {#- The messages of the landing table `relation` this run parsed
        (base_qlik_kafka__parsed_messages). -#}
    select * except (raw_table)
    from {{ ref('base_qlik_kafka__parsed_messages') }}
    where raw_table = '{{ relation.identifier }}'
{%- endmacro %}
