{% macro change_mask_fits_udf(mask, width) %}
    {#- Python UDF implementation of change_mask_fits (udfs/change_mask.py). -#}
    cdcflow_change_mask_fits({{ mask }}, {{ width }})
{%- endmacro %}
