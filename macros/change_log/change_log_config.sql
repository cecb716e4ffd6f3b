{% macro change_log_config(table_name) %}
    {#- The config of a table's change log, whatever its format: appended to
        once per run (materialization cdcflow_incremental), partitioned by
        change_date, in the project's table format; its columns follow the
        table's configured ones (follow_configured_columns). -#}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(),
        incremental_strategy='append',
        partition_by=['change_date'],
        on_schema_change='fail',
        pre_hook=["{{ cdcflow.follow_configured_columns(this, '" ~ table_name ~ "', 'change_log') }}"],
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
{%- endmacro %}
