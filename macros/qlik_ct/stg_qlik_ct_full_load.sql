{% macro stg_qlik_ct_full_load(table_name) %}
    {{ return(adapter.dispatch('stg_qlik_ct_full_load', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__stg_qlik_ct_full_load(table_name) %}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {%- if not cfg.full_load_table -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has no `full_load_table` in vars.cdcflow_tables; "
            ~ "set it, or delete the model stg_qlik_ct__" ~ table_name ~ "_full_load."
        ) }}
    {%- endif -%}
    {%- set relation = source(cfg.source, cfg.full_load_table) -%}
    {%- set landed_types = {} -%}
    {%- set absent = [] -%}
    {%- if execute and model.resource_type != 'unit_test' and cdcflow.qlik_ct_table_problem(table_name) is none -%}
        {%- for col in cdcflow.landed_columns(relation) -%}
            {%- do landed_types.update({col.name | lower: col.dtype | lower}) -%}
        {%- endfor -%}
        {#- a column the source gained after the full load (the change table has it): null in the baseline -#}
        {%- for column in cfg.column_names if column | lower not in landed_types -%}
            {%- do absent.append(column) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set conversion_problem = cdcflow.conversion_problem(cfg, landed_types) -%}

with

source as (
    {%- if cdcflow.qlik_ct_table_problem(table_name) is none %}

    {{ cdcflow.landed_raw_rows(relation) }}
    {%- else %}

    -- no rows this run: the table's change log fails with the problem, the quarantine leaves the table out
    {{ cdcflow.qlik_ct_no_raw_rows(cfg, change_table=false) }}
    {%- endif %}

),

renamed as (

    select
        {{- cdcflow.typed_columns(cfg, landed_types, absent) }},
        {%- if conversion_problem %}
        {{ conversion_problem }} as conversion_problem,
        {%- endif %}
        _cdcflow_raw_row as raw_row,
        _cdcflow_landed_at as landed_at
    from source

),

validated as (

    select
        * {{- ' except (conversion_problem)' if conversion_problem }},
        case
            {%- if conversion_problem %}
            when conversion_problem is not null then conversion_problem
            {%- endif %}
            {%- for column in cfg.key %}
            when {{ column }} is null then 'null key column {{ column }}'
            {%- endfor %}
        end as invalid_reason
    from renamed
    -- the run's rows: the change log and the quarantine read them from here
    where {{ cdcflow.landed_for_readers(table_name) }}

)

{{ cdcflow.with_raw_row_for_quarantine('validated') }}
{% endmacro %}
