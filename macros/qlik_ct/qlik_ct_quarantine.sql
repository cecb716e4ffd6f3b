{% macro qlik_ct_quarantine() %}
    {{ return(adapter.dispatch('qlik_ct_quarantine', 'cdcflow')()) }}
{% endmacro %}

{% macro default__qlik_ct_quarantine() %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('qlik_ct') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set tables = [] -%}
    {%- for table_name in cdcflow.tables_with_new_rows('qlik_ct') if cdcflow.qlik_ct_table_problem(table_name) is none -%}
        {%- do tables.append(table_name) -%}
    {%- endfor %}

with
{%- for table_name in tables %}
{%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') %}
{%- set group_range = cdcflow.processing_range(table_name) %}
{%- set in_range = cdcflow.landed_in_range(group_range) %}
{%- set change_log = cdcflow.change_log_before_run(table_name) %}
{%- set quarantined_before_images = cdcflow.qlik_ct_quarantined_before_images(cfg) %}

{{ table_name }}_changes as (

    select *
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'changes')) }}
    where {{ in_range }}

),

{{ table_name }}_valid_changes as (

    select * from {{ table_name }}_changes where invalid_reason is null

),

{{ table_name }}_orphans as (

    -- before images without their UPDATE that this run found (each with its
    -- landed row): those an earlier run found were quarantined by it
    select change_seq, raw_row, landed_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'before_images_waiting')) }}
    where {{ cdcflow.appended_in_this_run() }}

),

{{ table_name }}_delivered_again as (

    -- the changes delivered twice in the run, or logged before it: only they
    -- can conflict (conflicting_deliveries), so only they are paired again
    select valid_change.*
    from {{ table_name }}_valid_changes as valid_change
    left semi join (
        select change_seq
        from {{ table_name }}_valid_changes
        group by change_seq, change_oper
        having count(*) > 1
        {%- if change_log %}

        union all

        select substr(change_order, 1, 35) as change_seq
        from {{ change_log }}
        where
            change_date >= (select min(to_date(committed_at)) from {{ table_name }}_valid_changes)
            and loaded_at < {{ cdcflow.run_loaded_at() }}
        {%- endif %}
    ) as delivered_again
        on valid_change.change_seq = delivered_again.change_seq

),

{%- if quarantined_before_images %}

{{ table_name }}_quarantined_before_images as (

    -- paired as the change log pairs them: a key move applied with its before
    -- image from here is compared as the change it logged
    {{ quarantined_before_images }}

),
{%- endif %}

{{ table_name }}_deliveries as (

    {{ cdcflow.qlik_ct_canonical_changes(
        table_name ~ '_delivered_again', cfg,
        table_name ~ '_quarantined_before_images' if quarantined_before_images else none
    ) }}

),

{{ table_name }}_conflicts as (

    {{ cdcflow.conflicting_deliveries(cfg, table_name, table_name ~ '_deliveries', ['base_order']) }}

),

{{ table_name }}_rejected as (

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.change_table }}' as raw_table,
        change_seq,
        invalid_reason as reason,
        raw_row,
        landed_at
    from {{ table_name }}_changes
    where invalid_reason is not null

    union all

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.change_table }}' as raw_table,
        change_seq,
        '{{ cdcflow.orphan_before_image_reason() }}' as reason,
        raw_row,
        landed_at
    from {{ table_name }}_orphans

    union all

    -- a second delivery of a change with another content: the canonical change as delivered
    select
        '{{ table_name }}' as source_table,
        '{{ cfg.change_table }}' as raw_table,
        base_order as change_seq,
        {{ cdcflow.conflict_reason('change_seq') }} as reason,
        delivered_content as raw_row,
        landed_at
    from {{ table_name }}_conflicts
    {%- if cfg.full_load_table %}

    union all

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.full_load_table }}' as raw_table,
        cast(null as string) as change_seq,
        invalid_reason as reason,
        raw_row,
        landed_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'full_load')) }}
    where
        invalid_reason is not null
        and {{ cdcflow.landed_in_range(group_range) }}
    {%- endif %}

),
{%- endfor %}
{%- set rejected = [] %}
{%- for table_name in tables %}{% do rejected.append(table_name ~ '_rejected') %}{% endfor %}

rejected as (
    {%- if rejected %}
    {{- cdcflow.union_all(rejected) }}
    {%- else %}

    select
        cast(null as string) as source_table,
        cast(null as string) as raw_table,
        cast(null as string) as change_seq,
        cast(null as string) as reason,
        cast(null as string) as raw_row,
        cast(null as timestamp) as landed_at
    where false
    {%- endif %}

),

{{ cdcflow.append_new_rejections('rejected', ['source_table', 'raw_table', 'change_seq', 'reason', 'raw_row', 'landed_at']) }}
{% endmacro %}
