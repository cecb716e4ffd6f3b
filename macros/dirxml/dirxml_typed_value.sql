{% macro dirxml_typed_value(text, data_type) %}
    {#- An event-log value (text) as the column's Spark `data_type`: binary values
        are Base64 (reference 003: 0xAAAA is written qqo=), everything else is cast;
        null when it does not convert (the staging then says why). -#}
    {%- set spark_type = data_type | lower | replace(' ', '') -%}
    {%- if spark_type == 'binary' -%}
        try_to_binary({{ text }}, 'base64')
    {%- elif spark_type == 'boolean' -%}
        case lower({{ text }}) when 'true' then true when '1' then true when 'false' then false when '0' then false end
    {%- else -%}
        try_cast({{ text }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
