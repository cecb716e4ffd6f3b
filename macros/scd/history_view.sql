{% macro history_view(table_name) %}
    {{ return(adapter.dispatch('history_view', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__history_view(table_name) %}
    {{ config(materialized='cdcflow_view') }}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set versioned = ref(cdcflow.table_model_name(table_name, 'versioned')) -%}
    {%- set folded = cfg.history_columns is not none -%}
    {#- deletes are versions of their own with `deletes: flag`; links to fold keep
        them until the versions are made (a change after a delete opens one) -#}
    {%- set versions = "(select * from " ~ versioned ~ " where change_order is not null"
        ~ (")" if cfg.deletes == 'flag' or folded else " and operation <> 'D')") -%}
    {#- less the superseded copies of links on parquet (layout_macro) -#}
    {%- set valid_versions = cdcflow.layout_macro('valid_versions')(versions, versioned, cfg.key) -%}
    {%- if folded -%}
        {%- set valid_versions = cdcflow.fold_untracked_changes('(' ~ valid_versions ~ ')', cfg) -%}
    {%- endif %}
select
    {{ cfg.column_names | join(',\n    ') }},
    operation,
    change_order,
    valid_from,
    {%- if cfg.valid_to_current %}
    case
        when valid_to_change_order is null then cast({{ cfg.valid_to_current }} as timestamp)
        else valid_to
    end as valid_to,
    {%- else %}
    valid_to,
    {%- endif %}
    valid_to_change_order,
    closed_by_operation,
    is_current,
    transaction_id,
    changed_columns
from (
    {{ valid_versions }}
) as valid_versions
{%- if folded and cfg.deletes != 'flag' %}
where operation <> 'D'
{%- endif %}
{%- endmacro %}
