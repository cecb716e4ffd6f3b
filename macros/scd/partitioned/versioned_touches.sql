{% macro versioned_touches(relation, key_columns) %}
    {#- The touch rows of an int_<table>__versioned table (in its open
        partitions): per run and key it changed, the key's first new change_order,
        as (key, first_new_change_order, loaded_at). -#}
    select
        {{ key_columns | join(', ') }},
        valid_to_change_order as first_new_change_order,
        loaded_at
    from {{ relation }}
    where written_in_run >= 'open' and change_order is null and valid_to_change_order is not null
{%- endmacro %}
