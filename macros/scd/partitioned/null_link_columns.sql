{% macro null_link_columns(cfg, keep_key, valid_to_change_order) %}
    {#- The columns of a parquet chain's row that is no link (a touch, a run
        marker), typed as a link's and null but for the key (`keep_key`), its
        valid_to_change_order (SQL), is_current false and this run's loaded_at. -#}
        {%- for column, data_type in cfg.columns.items() %}
        {%- if keep_key and column in cfg.key %}
        {{ column }},
        {%- else %}
        cast(null as {{ data_type }}) as {{ column }},
        {%- endif %}
        {%- endfor %}
        cast(null as string) as operation,
        cast(null as string) as change_order,
        cast(null as timestamp) as valid_from,
        cast(null as timestamp) as valid_to,
        {{ valid_to_change_order }} as valid_to_change_order,
        cast(null as string) as closed_by_operation,
        false as is_current,
        cast(null as string) as transaction_id,
        cast(null as array<string>) as changed_columns,
        cast(null as array<string>) as present_columns,
        {{ cdcflow.run_loaded_at() }} as loaded_at
{%- endmacro %}
