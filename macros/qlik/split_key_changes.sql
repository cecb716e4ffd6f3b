{% macro split_key_changes(relation, cfg, carried_columns=[]) %}
    {#- Canonical changes of `relation` (columns: the table's columns, operation
        L/I/U/D, base_order, committed_at, transaction_id, changed_columns,
        present_columns, landed_at, is_key_change and before_<key column>):
        change_order = base_order + one digit, '0' for the change of the key the
        row has after it; a primary-key update becomes a delete of the old key
        ('1') and an insert of the new key with the whole row ('0'), as Debezium
        emits it. The insert keeps '0': the new key's change has one order
        whether or not its before image was read with it (a Qlik `__ct` UPDATE
        landed before its BEFOREIMAGE is logged as an UPDATE of the new key, and
        replaced by the insert when the pair is read: relogs_other_operation). Shared by
        the Qlik formats, whose UPDATE carries the old key in its before image.
        base_order is kept: `relation`'s rows stay partitioned by it (see
        append_new_changes' partitioned_by); so are `carried_columns` (where a
        delivery came from, for conflicting_deliveries). -#}
    {#- one pass: a change that keeps its key is part 0; a key change is exploded
        into parts 1 and 2 (a union of three selects would scan and join
        `relation` three times) -#}
    {%- set part = '_cdcflow_key_change_part' %}
    select
        {%- for column in cfg.column_names %}
        {%- if column in cfg.key %}
        case when {{ part }} = 1 then before_{{ column }} else {{ column }} end as {{ column }},
        {%- else %}
        case
            when {{ part }} = 1 then cast(null as {{ cfg.columns[column] }}) else {{ column }}
        end as {{ column }},
        {%- endif %}
        {%- endfor %}
        case {{ part }} when 0 then operation when 1 then 'D' else 'I' end as operation,
        concat(base_order, if({{ part }} = 1, '1', '0')) as change_order,
        committed_at,
        transaction_id,
        case {{ part }}
            when 0 then changed_columns
            when 1 then {{ cdcflow.string_array(cfg.key) }}
            else present_columns
        end as changed_columns,
        case
            when {{ part }} = 1 then {{ cdcflow.string_array(cfg.column_names) }} else present_columns
        end as present_columns,
        landed_at,
        {%- for column in carried_columns %}
        {{ column }},
        {%- endfor %}
        base_order
    from {{ relation }}
    lateral view explode(if(is_key_change, array(1, 2), array(0))) key_change_parts as {{ part }}
{%- endmacro %}
