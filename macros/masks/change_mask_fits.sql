{% macro change_mask_fits(mask, width) %}
    {#- Boolean: `mask` sets no bit at or past `width` (the number of columns it
        describes, header columns included) and is at most varbinary(128).
        Trailing zero bytes are allowed. Null mask gives null. `width` is a number,
        or a SQL expression when it varies per row (Qlik Kafka). Implementation per
        var('cdcflow_mask_decoder'), like decode_change_mask. -#}
    {%- if width is not string and (width is not number or width < 1) -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.change_mask_fits: `width` must be a positive number or a SQL expression, got "
            ~ width ~ "."
        ) }}
    {%- endif -%}
    {%- if var('cdcflow_mask_decoder', 'native') == 'udf' -%}
        {{ cdcflow.change_mask_fits_udf(mask, width) }}
    {%- else -%}
        {{ cdcflow.change_mask_fits_native(mask, width) }}
    {%- endif -%}
{% endmacro %}
