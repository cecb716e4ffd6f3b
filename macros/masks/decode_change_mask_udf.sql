{% macro decode_change_mask_udf(mask, columns, first_bit=0) %}
    {#- Python UDF implementation of decode_change_mask (udfs/change_mask.py:changed_columns,
        registered by udfs/spark_registration.py). The only place naming the function. -#}
    cdcflow_changed_columns(
        {{ mask }}, {{ columns if columns is string else cdcflow.string_array(columns) }}, {{ first_bit }}
    )
{%- endmacro %}
