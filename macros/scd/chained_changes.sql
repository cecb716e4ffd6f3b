{% macro chained_changes(cfg, event_columns, incremental) %}
    {#- The CTEs of a version chain's model (partitioned_versioned_model,
        merged_versioned_model) from `new_changes` (the changes newly logged:
        `event_columns` and loaded_at) and, when `incremental`, `reopened_links`
        (the stored links a new change affects, with their key's
        first_new_change_order): `changes`, both as changes; `unique_changes`,
        one per key and change_order; `chained`, linked by scd2_versions.
        Starts with a CTE name and ends without a comma. -#}
    {%- set key = cfg.key %}
changes as (

    select
        {{ event_columns | join(', ') }},
        loaded_at,
        1 as source_priority
    from new_changes
    {%- if incremental %}

    union all

    -- re-opened links, back as the changes that started them; the link in effect
    -- before the first new change keeps its (complete) values as they are
    select
        {{ cfg.column_names | join(', ') }},
        operation,
        change_order,
        valid_from as committed_at,
        transaction_id,
        changed_columns,
        case
            when change_order < first_new_change_order then {{ cdcflow.string_array(cfg.column_names) }}
            else present_columns
        end as present_columns,
        loaded_at,
        0 as source_priority
    from reopened_links
    {%- endif %}

),

unique_changes as (
    {%- if incremental %}

    {%- if cfg.relogs_changes %}
    -- a change logged again replaces the stored link and earlier rows of it
    {{ cdcflow.latest_per_key('changes', key + ['change_order'], 'loaded_at desc, source_priority') }}
    {%- else %}
    -- a change already in the table wins over a second delivery of it
    {{ cdcflow.latest_per_key('changes', key + ['change_order'], 'source_priority') }}
    {%- endif %}
    {%- elif cfg.relogs_changes %}

    -- the newest row of a change logged again, by a window partitioned like the
    -- chain's (no shuffle of its own)
    select * except (is_relogged)
    from (
        select
            *,
            coalesce(
                lead(change_order) over (partition by {{ key | join(', ') }} order by change_order, loaded_at)
                = change_order,
                false
            ) as is_relogged
        from changes
    ) as relogged
    where not is_relogged
    {%- else %}

    -- the change log holds one row per key and change_order: nothing to choose
    -- (and no shuffle by key and change_order before the chain's by key)
    select * from changes
    {%- endif %}

),

chained as (

    {{ cdcflow.scd2_versions('unique_changes', cfg) }}

)
{%- endmacro %}
