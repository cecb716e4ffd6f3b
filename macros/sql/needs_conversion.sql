{% macro needs_conversion(landed_type, data_type) %}
    {#- Whether a value landed as `landed_type` (none: unknown) is converted to
        the configured `data_type`, and so may fail to convert. -#}
    {%- set landed = (landed_type or '') | lower | replace(' ', '') -%}
    {{ return(landed != '' and landed != data_type | lower | replace(' ', '')) }}
{% endmacro %}
