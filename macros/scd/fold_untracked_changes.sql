{% macro fold_untracked_changes(links, cfg) %}
    {#- The versions of the table's tracked columns (cfg.history_columns, from
        track_history_columns, track_history_except_columns or
        skip_unchanged_versions), from `links` (the valid links of
        int_<table>__versioned, deletes included): an update that changes no
        tracked column's value (null-safe, against the link before it) opens no
        version; it updates the open one in place. A version is then a run of a
        key's links from the one that opened it (a first change, an insert, a
        delete, the change after a delete, an update of a tracked column) to
        the last before the next: its operation, change_order, valid_from and
        transaction_id are the opening link's; its values, valid_to,
        valid_to_change_order, closed_by_operation and is_current the last
        link's; its changed_columns every column a link of it set, in the
        table's order. Computed from the links each time, so a late change
        lands in the version it falls in, and a run equals a full refresh. -#}
    {%- set key = cfg.key | join(', ') -%}
    {%- set last = ['valid_to', 'valid_to_change_order', 'closed_by_operation', 'is_current'] -%}
    {%- set first = ['operation', 'change_order', 'valid_from', 'transaction_id'] %}
    select
        {%- for column in cfg.key %}
        {{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns + last %}
        last_link.{{ column }},
        {%- endfor %}
        {%- for column in first %}
        opening_link.{{ column }},
        {%- endfor %}
        changed_columns
    from (
        select
            {{ key }},
            max_by(
                struct({{ (cfg.data_columns + last) | join(', ') }}), change_order
            ) as last_link,
            min_by(struct({{ first | join(', ') }}), change_order) as opening_link,
            filter(
                {{ cdcflow.string_array(cfg.column_names) }},
                name -> array_contains(flatten(collect_list(coalesce(changed_columns, array()))), name)
            ) as changed_columns
        from (
            select
                *,
                sum(cast(opens_version as int)) over (
                    partition by {{ key }} order by change_order rows between unbounded preceding and current row
                ) as version_number
            from (
                select
                    *,
                    lag(change_order) over by_key is null
                    or operation <> 'U'
                    or lag(operation) over by_key = 'D'
                    {%- for column in cfg.history_columns %}
                    or not ({{ column }} <=> lag({{ column }}) over by_key)
                    {%- endfor %} as opens_version
                from {{ links }} as link
                window by_key as (partition by {{ key }} order by change_order)
            ) as marked
        ) as numbered
        group by {{ key }}, version_number
    ) as versions
{%- endmacro %}
