{% macro history_view(table_name) %}
    {#- Body of <table>_history: one row per version of each key (SCD2), less the
        copies of links a later run superseded. The open version's valid_to is
        null, or the table's `valid_to_current` (a SQL expression of a
        timestamp, e.g. timestamp'9999-12-31 00:00:00': dbt snapshots'
        dbt_valid_to_current), so that `between` works. With `deletes: flag` a
        delete is a version too (operation D, the values the key had before it,
        never current: dbt snapshots' hard_deletes new_record). On Delta Lake
        and Iceberg the chain holds no superseded copies (merged_valid_versions,
        partitioned_valid_versions). With tracked
        columns (track_history_columns, track_history_except_columns,
        skip_unchanged_versions), an update that changes none of them updates
        the open version instead of opening one (fold_untracked_changes). -#}
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
