{% macro change_mask_fits_native(mask, width) %}
    {#- Spark SQL implementation of change_mask_fits. The mask's significant length is
        its hex form without trailing '0' digits, rounded up to whole bytes; `width`
        is a number or a SQL expression. -#}
    {%- if width is number -%}
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
    {%- else -%}
    case
        when {{ mask }} is not null then
            octet_length({{ mask }}) <= 128
            and ceil(length(trim(trailing '0' from hex({{ mask }}))) / 2) <= ({{ width }} + 7) div 8
            and (
                ({{ width }}) % 8 = 0
                or coalesce(cast(conv(hex(substring({{ mask }}, ({{ width }} + 7) div 8, 1)), 16, 10) as int), 0)
                < shiftleft(1, cast(({{ width }}) % 8 as int))
            )
    end
    {%- endif -%}
{%- endmacro %}
