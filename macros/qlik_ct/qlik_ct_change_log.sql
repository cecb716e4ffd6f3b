{% macro qlik_ct_change_log(table_name) %}
    {{ return(adapter.dispatch('qlik_ct_change_log', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__qlik_ct_change_log(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {{ cdcflow.change_log_config(table_name) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set problem = cdcflow.qlik_ct_table_problem(table_name) -%}
    {%- if problem -%}
        {{ exceptions.raise_compiler_error(problem) }}
    {%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}
    {%- set all_columns = cdcflow.string_array(cfg.column_names) -%}
    {%- set quarantined_before_images = cdcflow.qlik_ct_quarantined_before_images(cfg) -%}

with

landed as (

    -- every raw row of the processing range (the state table's CS..CE)
    select *
    from {{ ref(cdcflow.table_model_name(table_name, 'changes')) }}
    where {{ cdcflow.landed_in_range(group_range) }}

),

changes as (

    select * from landed where invalid_reason is null

),
{%- if cfg.full_load_table %}

full_load as (

    select *
    from {{ ref(cdcflow.table_model_name(table_name, 'full_load')) }}
    where
        invalid_reason is null
        and {{ cdcflow.landed_in_range(group_range) }}

),
{%- endif %}

{%- if cfg.full_load_table %}

baseline as (

    -- the full load: the baseline, before every change (change_order of zeros)
    select
        {{ cfg.column_names | join(', ') }},
        'L' as operation,
        repeat('0', 36) as change_order,
        cast(null as timestamp) as committed_at,
        cast(null as string) as transaction_id,
        {{ all_columns }} as changed_columns,
        {{ all_columns }} as present_columns,
        landed_at
    from full_load

),
{%- endif %}

{%- if quarantined_before_images %}

quarantined_before_images as (

    -- before images quarantined as orphans by earlier runs: an UPDATE landed
    -- later than the overlap let its before image wait is paired with it
    {{ quarantined_before_images }}

),
{%- endif %}

canonical as (

    {{ cdcflow.qlik_ct_canonical_changes(
        'changes', cfg, 'quarantined_before_images' if quarantined_before_images else none
    ) }}

),

{# the changes are de-duplicated within the pairing join's shuffle by change_seq (base_order) #}
{{ cdcflow.append_new_changes(
    cfg, 'canonical', 'qlik_ct', group_range, partitioned_by=['base_order'],
    baseline='baseline' if cfg.full_load_table else none
) }}
{% endmacro %}
