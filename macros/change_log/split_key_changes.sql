{% macro split_key_changes(relation, cfg) %}
    {#- Canonical changes of `relation` (columns: the table's columns, operation
        L/I/U/D, base_order, committed_at, transaction_id, changed_columns,
        present_columns, landed_at, is_key_change and before_<key column>):
        change_order = base_order + one digit, '0' for a change that keeps its key;
        a primary-key update becomes a delete of the old key ('1') and an insert
        of the new key with the whole row ('2'), as Debezium emits it. Shared by
        the Qlik formats, whose UPDATE carries the old key in its before image. -#}
    -- changes that keep their key
    select
        {{ cfg.column_names | join(', ') }},
        operation,
        concat(base_order, '0') as change_order,
        committed_at,
        transaction_id,
        changed_columns,
        present_columns,
        landed_at
    from {{ relation }}
    where not is_key_change

    union all

    -- primary-key update, 1 of 2: the old key (from the before image) is deleted
    select
        {%- for column in cfg.column_names %}
        {%- if column in cfg.key %}
        before_{{ column }} as {{ column }},
        {%- else %}
        cast(null as {{ cfg.columns[column] }}) as {{ column }},
        {%- endif %}
        {%- endfor %}
        'D' as operation,
        concat(base_order, '1') as change_order,
        committed_at,
        transaction_id,
        {{ cdcflow.string_array(cfg.key) }} as changed_columns,
        {{ cdcflow.string_array(cfg.column_names) }} as present_columns,
        landed_at
    from {{ relation }}
    where is_key_change

    union all

    -- primary-key update, 2 of 2: the new key is inserted with the whole row
    select
        {{ cfg.column_names | join(', ') }},
        'I' as operation,
        concat(base_order, '2') as change_order,
        committed_at,
        transaction_id,
        present_columns as changed_columns,
        present_columns,
        landed_at
    from {{ relation }}
    where is_key_change
{%- endmacro %}
