{% macro landed_after(watermark) %}
    {#- Filter: the raw row landed after `watermark`, or its landing time is unknown
        (see landed_at_expression). -#}
    (landed_at > {{ watermark }} or landed_at is null)
{%- endmacro %}
