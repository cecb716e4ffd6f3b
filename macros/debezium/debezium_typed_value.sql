{% macro debezium_typed_value(text, field_schema, data_type, fallback_name=none, decimal_handling_mode='precise', base64_digits=none) %}
    {#- A Debezium JSON value (`text`, as from_json left it) as the configured Spark
        `data_type`, decoded by its Kafka Connect type (`field_schema`: struct of
        type, name, parameters). Logical types a SQL Server table produces:
        Date (days), Timestamp (ms), MicroTimestamp (µs), NanoTimestamp (ns),
        ZonedTimestamp (ISO text), Decimal (Base64 big-endian two's complement,
        scale in parameters) and VariableScaleDecimal ({scale, value}), bytes
        (Base64). Without a schema, `fallback_name` (the table's connect_types
        entry) or the Spark type decides. `base64_digits`: a column holding
        `text` decoded from Base64, in hex (decimal types; see
        connect_decimal_text). -#}
    {%- set spark_type = data_type | lower | replace(' ', '') -%}
    {%- set name = "coalesce(" ~ field_schema ~ ".name, " ~ ("'" ~ fallback_name ~ "'" if fallback_name else "null") ~ ")" -%}
    {%- if spark_type.startswith('decimal') -%}
        {%- set scale = (spark_type.split(',')[1].rstrip(')') if ',' in spark_type else '0') -%}
        {%- set default_decimal = cdcflow.connect_decimal_text(text, scale, base64_digits)
            if decimal_handling_mode == 'precise' else text -%}
        try_cast(
            case
                when {{ name }} = 'org.apache.kafka.connect.data.Decimal'
                    then {{ cdcflow.connect_decimal_text(
                        text, "try_cast(" ~ field_schema ~ ".parameters['scale'] as int)", base64_digits
                    ) }}
                when {{ name }} = 'io.debezium.data.VariableScaleDecimal'
                    then {{ cdcflow.connect_decimal_text(
                        "from_json(" ~ text ~ ", 'struct<scale: int, value: string>').value",
                        "from_json(" ~ text ~ ", 'struct<scale: int, value: string>').scale"
                    ) }}
                when {{ field_schema }}.type is not null then {{ text }}
                else {{ default_decimal }}
            end as {{ data_type }}
        )
    {%- elif spark_type == 'date' -%}
        case
            when {{ name }} in ('io.debezium.time.Date', 'org.apache.kafka.connect.data.Date')
                or {{ name }} is null and {{ text }} rlike '^-?[0-9]+$'
                then date_add(date'1970-01-01', try_cast({{ text }} as int))
            else try_cast({{ text }} as date)
        end
    {%- elif spark_type.startswith('timestamp') -%}
        cast(
            case
                when {{ name }} = 'io.debezium.time.MicroTimestamp' then timestamp_micros(try_cast({{ text }} as bigint))
                when {{ name }} = 'io.debezium.time.NanoTimestamp'
                    then timestamp_micros(cast(try_cast({{ text }} as bigint) div 1000 as bigint))
                when {{ name }} in ('io.debezium.time.Timestamp', 'org.apache.kafka.connect.data.Timestamp')
                    or {{ name }} is null and {{ text }} rlike '^-?[0-9]+$'
                    then timestamp_millis(try_cast({{ text }} as bigint))
                -- ZonedTimestamp and text: ISO-8601, with its offset applied
                else try_cast({{ text }} as timestamp)
            end as {{ data_type }}
        )
    {%- else -%}
        {{ cdcflow.text_as_type(text, data_type) }}
    {%- endif -%}
{%- endmacro %}
