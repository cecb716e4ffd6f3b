{% macro restore_cdc_state_table(relation) %}
    {#- Puts right what a compaction of a state table killed midway left
        (compact_cdc_state_table): with the table there, its leftover copy
        (<name>__compacted, maybe half-written) and replaced table
        (<name>__replaced, already copied) are dropped; without it, the complete
        copy is renamed to its name (killed after the table was renamed away),
        else the replaced table is renamed back. Reads dbt's relation cache: no
        statement when nothing was left. -#}
    {%- set compacted = adapter.get_relation(relation.database, relation.schema, relation.identifier ~ '__compacted') -%}
    {%- set replaced = adapter.get_relation(relation.database, relation.schema, relation.identifier ~ '__replaced') -%}
    {%- if compacted is none and replaced is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set existing = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if existing is none and replaced is not none and compacted is not none -%}
        {%- do adapter.rename_relation(compacted, relation) -%}
        {%- set compacted = none -%}
    {%- elif existing is none and replaced is not none -%}
        {%- do adapter.rename_relation(replaced, relation) -%}
        {%- set replaced = none -%}
    {%- endif -%}
    {%- for left in [compacted, replaced] if left is not none -%}
        {%- do adapter.drop_relation(left) -%}
    {%- endfor -%}
{% endmacro %}
