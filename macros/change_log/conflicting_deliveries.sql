{% macro conflicting_deliveries(cfg, table_name, deliveries, delivery_columns=[]) %}
    {#- The conflicts among the canonical changes in `deliveries` (every delivery
        a run read, each with `delivery_columns` saying where it came from, not
        de-duplicated): a delivery whose key and change_order are those of
        another delivery or of a change logged by an earlier run, and whose
        content (change_content) differs. The change applied is the one logged
        before this run, else the first delivered (delivery_order, as
        append_new_changes takes it); each other delivery with another content
        is returned with `delivery_columns`, the key, change_order, landed_at,
        its content (delivered_content) and the applied change's
        (applied_content, applied_landed_at). A replayed feed that is not what
        was first delivered shows here. Baseline rows (operation L) are left out:
        a reload replaces them. A key delivered once and not logged before is its
        own applied change: it never conflicts, so every delivery is compared
        (no semi join of the deliveries on their repeated keys: each reference
        to `deliveries` is its whole query again, inlined). -#}
    {%- set change_log = cdcflow.change_log_before_run(table_name) -%}
    {#- a column configured since the change log was last written (its pre-hook
        adds it, maybe after this model has run): null in the changes logged before -#}
    {%- set stored = (adapter.get_columns_in_relation(change_log) | map(attribute='name') | map('lower') | list)
        if change_log else [] -%}
    {#- a format that relogs_other_operation: a reading with another operation
        replaces the change logged (append_new_changes), it does not conflict -#}
    {%- set identity = cfg.key + ['change_order'] + (['operation'] if cfg.relogs_other_operation else []) -%}
    {%- set change_columns = cfg.column_names + [
        'operation', 'change_order', 'committed_at', 'transaction_id', 'changed_columns', 'present_columns',
        'landed_at'] -%}
    {%- set logged_before_run -%}
        select *
        from {{ change_log }}
        where
            change_date >= (select min(to_date(committed_at)) from {{ deliveries }})
            and loaded_at < {{ cdcflow.run_loaded_at() }}
    {%- endset -%}
    select
        {%- for column in delivery_columns %}
        {{ column }},
        {%- endfor %}
        {{ identity | join(', ') }},
        landed_at,
        content as delivered_content,
        applied_content,
        applied_landed_at
    from (
        select
            *,
            {{ cdcflow.change_content(cfg) }} as content,
            first_value({{ cdcflow.change_content(cfg) }}) over first_delivered as applied_content,
            first_value(landed_at) over first_delivered as applied_landed_at
        from (
            select
                {%- for column in delivery_columns %}
                delivery.{{ column }},
                {%- endfor %}
                {%- for column in change_columns %}
                delivery.{{ column }},
                {%- endfor %}
                true as is_delivery
            from {{ deliveries }} as delivery
            where delivery.operation <> 'L'
            {%- if change_log %}

            union all

            select
                {%- for column in delivery_columns %}
                null as {{ column }},
                {%- endfor %}
                {%- for column in change_columns %}
                {%- if column in cfg.columns and column | lower not in stored %}
                cast(null as {{ cfg.columns[column] }}) as {{ column }},
                {%- else %}
                logged.{{ column }},
                {%- endif %}
                {%- endfor %}
                false as is_delivery
            from ({{ logged_before_run }}) as logged
            left semi join {{ deliveries }} as delivery
                on {{ cdcflow.key_match('logged', 'delivery', identity) }}
            {%- endif %}
        ) as deliveries_and_logged
        window first_delivered as (
            partition by {{ identity | join(', ') }}
            order by is_delivery asc, {{ cdcflow.delivery_order(cfg) }}
        )
    ) as compared
    where is_delivery and content <> applied_content
{%- endmacro %}
