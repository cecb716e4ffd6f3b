{% macro merge_links(target, source, unique_key, broadcast=false) %}
    {#- The MERGE of a version chain's recomputed links (`source`, a view of the
        table's columns) into `target` on `unique_key` (key and change_order):
        a link stored already is replaced, a new one inserted. `broadcast`: the
        links are few enough to send to every task (merged_chain_increment), so
        the joins that find the links they replace read the chain where it lies
        instead of shuffling it. -#}
    merge into {{ target }} as stored
    {%- if broadcast %}
    using (select /*+ broadcast(recomputed_link) */ * from {{ source }} as recomputed_link) as recomputed
    {%- else %}
    using {{ source }} as recomputed
    {%- endif %}
        on {{ cdcflow.key_match('stored', 'recomputed', unique_key) }}
    when matched then update set *
    when not matched then insert *
{%- endmacro %}
