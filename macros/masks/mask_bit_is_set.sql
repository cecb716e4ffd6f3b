{% macro mask_bit_is_set(mask, bit) %}
    {#- Boolean: bit `bit` of a little-endian binary mask is set (byte bit // 8 holds
        bits 8k+7..8k); a byte past the end of a trimmed mask reads as zero. -#}
    (coalesce(cast(conv(hex(substring({{ mask }}, {{ bit // 8 + 1 }}, 1)), 16, 10) as int), 0)
        & {{ 2 ** (bit % 8) }}) <> 0
{%- endmacro %}
