{% macro latest_per_key(relation, key_columns, order_by) %}
    {#- One row per `key_columns`: the first under `order_by` (pass `... desc` to
        keep the latest). `order_by` must make the choice deterministic. -#}
    {%- if not key_columns or key_columns is string -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.latest_per_key: key_columns must be a non-empty list, got " ~ key_columns ~ "."
        ) }}
    {%- endif -%}
    {%- if not order_by -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.latest_per_key: order_by is required (e.g. 'change_order desc')."
        ) }}
    {%- endif -%}
    select * except (_cdcflow_row_number)
    from (
        select
            *,
            row_number() over (
                partition by {{ key_columns | join(', ') }}
                order by {{ order_by }}
            ) as _cdcflow_row_number
        from {{ relation }}
    ) as numbered
    where _cdcflow_row_number = 1
{%- endmacro %}
