{% macro change_mask_fits_native(mask, width) %}
    {#- Spark SQL implementation of change_mask_fits. The mask's significant length is
        its hex form without trailing '0' digits, rounded up to whole bytes. -#}
    {%- set needed_bytes = (width + 7) // 8 -%}
    case
        when {{ mask }} is not null then
            octet_length({{ mask }}) <= 128
            and ceil(length(trim(trailing '0' from hex({{ mask }}))) / 2) <= {{ needed_bytes }}
            {%- if width % 8 != 0 %}
            and coalesce(cast(conv(hex(substring({{ mask }}, {{ needed_bytes }}, 1)), 16, 10) as int), 0)
                < {{ 2 ** (width % 8) }}
            {%- endif %}
    end
{%- endmacro %}
