{% macro scd2_versions(relation, cfg) %}
    {#- SCD2 derivation. `relation` holds one row per change of a key (columns:
        key, data, operation L/I/U/D, change_order, committed_at, transaction_id,
        changed_columns, present_columns); each change
        becomes a link of the key's chain, closed by the next change in
        change_order. Columns absent from a change (not in present_columns) keep
        the previous value; a present null is a null; a delete resets them.
        A delete's own link holds null values, or with the table's
        `deletes: flag` the values the key had before it (the previous link's;
        a delete first in `relation`, a stored link re-read, keeps its own),
        since it is then a version of the history and the deleted key's row
        of _current. -#}
    {%- set key = cfg.key | join(', ') -%}
    {%- set flag = cfg.deletes == 'flag' -%}
    {%- if flag %}
    select
        {%- for column in cfg.key %}
        {{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns %}
        case
            when operation = 'D' and lag(change_order) over by_key is not null
                then lag({{ column }}) over by_key
            else {{ column }}
        end as {{ column }},
        {%- endfor %}
        * except ({{ cfg.column_names | join(', ') }})
    from (
    {%- endif %}
    select
        {%- for column in cfg.key %}
        {{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns %}
        {%- if cfg.may_omit_columns %}
        case when operation <> 'D' then last(
            case
                when operation = 'D' then named_struct('value', cast(null as {{ cfg.columns[column] }}))
                when array_contains(present_columns, '{{ column }}') then named_struct('value', {{ column }})
            end,
            true
        ) over (
            partition by {{ key }} order by change_order rows between unbounded preceding and current row
        ).value {{ 'else ' ~ column if flag }} end as {{ column }},
        {%- else %}
        {{ column if flag else 'case when operation <> \'D\' then ' ~ column ~ ' end' }} as {{ column }},
        {%- endif %}
        {%- endfor %}
        operation,
        change_order,
        committed_at as valid_from,
        lead(committed_at) over by_key as valid_to,
        lead(change_order) over by_key as valid_to_change_order,
        lead(operation) over by_key as closed_by_operation,
        transaction_id,
        changed_columns,
        present_columns
    from {{ relation }}
    window by_key as (partition by {{ key }} order by change_order)
    {%- if flag %}
    ) as chained
    window by_key as (partition by {{ key }} order by change_order)
    {%- endif %}
{%- endmacro %}
