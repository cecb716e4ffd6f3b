{% macro decode_change_mask(mask, columns, first_bit=0) %}
    {{ return(adapter.dispatch('decode_change_mask', 'cdcflow')(mask, columns, first_bit)) }}
{% endmacro %}

{% macro default__decode_change_mask(mask, columns, first_bit=0) %}
    {%- if columns is not string and columns | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.decode_change_mask: `columns` must be a non-empty list of column names "
            ~ "or a SQL array<string> expression, got " ~ columns ~ "."
        ) }}
    {%- endif -%}
    {%- if first_bit is not number or first_bit < 0 -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.decode_change_mask: `first_bit` must be a number >= 0, got " ~ first_bit ~ "."
        ) }}
    {%- endif -%}
    {%- set decoder = var('cdcflow_mask_decoder', 'native') -%}
    {%- if decoder == 'native' -%}
        {{ cdcflow.decode_change_mask_native(mask, columns, first_bit) }}
    {%- elif decoder == 'udf' -%}
        {{ cdcflow.decode_change_mask_udf(mask, columns, first_bit) }}
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: var cdcflow_mask_decoder is '" ~ decoder ~ "'; use 'native' or 'udf'."
        ) }}
    {%- endif -%}
{% endmacro %}
