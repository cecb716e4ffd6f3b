{% macro qlik_kafka_typed_value(text, qlik_type, data_type) %}
    {#- A Qlik Kafka JSON value (`text`: values are strings) as the configured Spark
        `data_type`, read according to its Qlik type from the metadata message
        (BYTES/BLOB arrive as hex). -#}
    {%- if data_type | lower == 'binary' -%}
        case when {{ qlik_type }} in ('BYTES', 'BLOB') then unhex({{ text }}) else try_cast({{ text }} as binary) end
    {%- elif data_type | lower == 'boolean' -%}
        case lower({{ text }}) when 'true' then true when '1' then true when 'false' then false when '0' then false end
    {%- else -%}
        try_cast({{ text }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
