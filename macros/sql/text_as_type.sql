{% macro text_as_type(text, data_type) %}
    {#- A value carried as text (`text`, a SQL expression) as the column's Spark
        `data_type`: binary from Base64 (DirXML: 0xAAAA is written qqo=; Connect
        bytes), boolean from true/false/1/0, anything else cast; null when it does
        not convert (the caller says why). -#}
    {%- set spark_type = data_type | lower | replace(' ', '') -%}
    {%- if spark_type == 'binary' -%}
        try_to_binary({{ text }}, 'base64')
    {%- elif spark_type == 'boolean' -%}
        case lower({{ text }}) when 'true' then true when '1' then true when 'false' then false when '0' then false end
    {%- else -%}
        try_cast({{ text }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
