{% macro mask_bit_is_set(mask, bit) %}
    {#- Boolean: bit `bit` of a little-endian binary mask is set (byte bit // 8 holds
        bits 8k+7..8k); a byte past the end of a trimmed mask reads as zero. `bit`
        is a number, or a SQL expression when the position varies per row (Qlik
        Kafka: from the metadata message in effect). -#}
    {%- if bit is number -%}
    (coalesce(cast(conv(hex(substring({{ mask }}, {{ bit // 8 + 1 }}, 1)), 16, 10) as int), 0)
        & {{ 2 ** (bit % 8) }}) <> 0
    {%- else -%}
    (coalesce(cast(conv(hex(substring({{ mask }}, ({{ bit }}) div 8 + 1, 1)), 16, 10) as int), 0)
        & shiftleft(1, cast(({{ bit }}) % 8 as int))) <> 0
    {%- endif -%}
{%- endmacro %}
