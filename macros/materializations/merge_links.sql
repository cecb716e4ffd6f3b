{% macro merge_links(target, source, unique_key) %}
    {#- The MERGE of a version chain's recomputed links (`source`, a view of the
        table's columns) into `target` on `unique_key` (key and change_order):
        a link stored already is replaced, a new one inserted. -#}
    merge into {{ target }} as stored
    using {{ source }} as recomputed
        on {{ cdcflow.key_match('stored', 'recomputed', unique_key) }}
    when matched then update set *
    when not matched then insert *
{%- endmacro %}
