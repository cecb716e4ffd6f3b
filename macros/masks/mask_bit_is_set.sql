{% macro mask_bit_is_set(mask, bit) %}
    {#- Boolean: bit `bit` of a little-endian binary mask is set (byte bit // 8 holds
        bits 8k+7..8k); a byte past the end of a trimmed mask reads as zero. `bit`
        is a number, or a SQL expression when the position varies per row (Qlik
        Kafka: from the metadata message in effect). Read from the mask's hex
        digits: byte k is digits 2k + 1 (bits 7..4) and 2k + 2 (bits 3..0), a
        digit's value is its place in '0123456789ABCDEF' (string functions that
        Spark compiles; conv() on each byte cost a tenth of a Qlik Kafka build). -#}
    {%- if bit is number -%}
    {%- set digit = 2 * (bit // 8) + (1 if bit % 8 >= 4 else 2) -%}
    ((instr('0123456789ABCDEF', substring(hex({{ mask }}), {{ digit }}, 1)) - 1) & {{ 2 ** (bit % 4) }}) > 0
    {%- else -%}
    ((instr(
        '0123456789ABCDEF',
        substring(hex({{ mask }}), 2 * (({{ bit }}) div 8) + case when ({{ bit }}) % 8 >= 4 then 1 else 2 end, 1)
    ) - 1) & shiftleft(1, cast(({{ bit }}) % 4 as int))) > 0
    {%- endif -%}
{%- endmacro %}
