{% macro qlik_ct_quarantine_resolved() %}
    {{ return(adapter.dispatch('qlik_ct_quarantine_resolved', 'cdcflow')()) }}
{% endmacro %}

{% macro default__qlik_ct_quarantine_resolved() %}
    {{ config(materialized='cdcflow_view') }}
    {%- if not cdcflow.enabled_for_format('qlik_ct') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set tables = cdcflow.tables_of_format('qlik_ct') %}

with

orphans as (

    select *
    from {{ ref('qlik_ct_quarantine') }}
    where reason = '{{ cdcflow.orphan_before_image_reason() }}'

),
{%- for table_name in tables %}

{{ table_name }}_logged as (

    -- when each change of an orphan's change_seq was first logged
    select
        '{{ table_name }}' as source_table,
        substr(change_order, 1, 35) as change_seq,
        min(loaded_at) as logged_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'changes_logged')) }}
    where
        operation <> 'L'
        and change_date >= (
            select date_sub(to_date(substr(min(change_seq), 1, 8), 'yyyyMMdd'), 1)
            from orphans
            where source_table = '{{ table_name }}'
        )
    group by substr(change_order, 1, 35)

),
{%- endfor %}
{%- set logged = [] %}
{%- for table_name in tables %}{% do logged.append(table_name ~ '_logged') %}{% endfor %}

logged as (
    {{- cdcflow.union_all(logged) }}

),

final as (

    select
        orphan.source_table,
        orphan.raw_table,
        orphan.change_seq,
        orphan.reason,
        orphan.raw_row,
        orphan.landed_at,
        orphan.loaded_at,
        logged.logged_at as resolved_at,
        'its UPDATE landed later and was applied with it' as resolution
    from orphans as orphan
    inner join logged
        on orphan.source_table = logged.source_table
        and orphan.change_seq = logged.change_seq
        -- logged before the orphan was quarantined: applied without it (it landed too late)
        and orphan.loaded_at < logged.logged_at

)

select * from final
{% endmacro %}
