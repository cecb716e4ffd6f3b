{% macro append_new_changes(
    cfg, relation, source_format, group_range, partitioned_by=[], baseline=none, amends_logged=none,
    changes_since=none
) %}
    {#- The last CTEs and the select of a change-log model (int_<table>__changes_logged):
        the canonical changes in `relation` (the table's columns, operation,
        change_order, committed_at, transaction_id, changed_columns,
        present_columns, landed_at), one per key and change_order (a second
        delivery is the same change: the first landed is kept, see
        delivery_order; one whose content differs is a conflict the format's
        quarantine reports, see conflicting_deliveries), less those already logged, with the end of
        the processing range (`group_range`, see processing_range) they were read
        in and its reprocessing flag (the reference's __$reprocessing: the range
        may already be on the target; the anti-join makes that harmless). Starts
        with a CTE name: call it after the comma of the caller's last CTE.
        `partitioned_by`: columns of `relation` that its change_order
        determines and that it is already shuffled on (e.g. the change_seq of a
        join): the de-duplication then reuses that shuffle instead of another
        one by key. `baseline`: a CTE of baseline rows (a full load), the same
        columns less `partitioned_by`, de-duplicated on its own so `relation`
        keeps its partitioning. `amends_logged`: a boolean column of `relation`,
        true for a change that replaces the one logged under its key and
        change_order (a format that relogs_changes): it is logged again. A format
        that relogs_other_operation logs again a change read with another
        operation than the one logged (a Qlik `__ct` UPDATE logged before its
        before image landed, read again paired with it: the insert of a key
        change). -#}
    {%- set key = cfg.key -%}

deduplicated as (
    {%- if baseline %}

    {{ cdcflow.latest_per_key(baseline, key + ['change_order'], 'landed_at desc') }}

    union all
    {%- endif %}

    select * {%- if partitioned_by %} except ({{ partitioned_by | join(', ') }}){% endif %}
    from (
        {{ cdcflow.latest_per_key(relation, partitioned_by + key + ['change_order'], cdcflow.delivery_order(cfg)) }}
    ) as deduplicated_changes

),
{%- if cdcflow.is_incremental_run() %}

already_logged as (

    select {{ key | join(', ') }}, change_order{{ ', operation' if cfg.relogs_other_operation }}
    from {{ this }}
    where
        -- prunes to the partitions the new rows can fall in (null: the baseline)
        coalesce(change_date, date'0001-01-01') >= (
            {%- if changes_since %}
            {{ changes_since }}
            {%- else %}
            select
                case
                    when count_if(committed_at is null) > 0 then date'0001-01-01'
                    else min(to_date(committed_at))
                end
            from deduplicated
            {%- endif %}
        )

),
{%- endif %}

final as (

    select
        {%- for column in cfg.column_names %}
        new_change.{{ column }},
        {%- endfor %}
        new_change.operation,
        new_change.change_order,
        new_change.committed_at,
        new_change.transaction_id,
        new_change.changed_columns,
        new_change.present_columns,
        '{{ source_format }}' as source_format,
        new_change.landed_at,
        {{ group_range.end or 'cast(null as timestamp)' }} as landed_until,
        {{ group_range.reprocessing }} as reprocessing,
        {{ cdcflow.run_loaded_at() }} as loaded_at,
        to_date(new_change.committed_at) as change_date
    from deduplicated as new_change
    {%- if cdcflow.is_incremental_run() %}
    left anti join already_logged
        on {{ cdcflow.key_match('new_change', 'already_logged', key) }}
        and new_change.change_order = already_logged.change_order
        {%- if cfg.relogs_other_operation %}
        -- logged with another operation: this reading replaces it (relogs_other_operation)
        and new_change.operation = already_logged.operation
        {%- endif %}
        {%- if amends_logged %}
        and not new_change.{{ amends_logged }}
        {%- endif %}
    {%- endif %}

)

select * from final
{%- endmacro %}
