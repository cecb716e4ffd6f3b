{% macro connect_decimal_text(encoded, scale, digits=none) -%}
    {#- A Kafka Connect Decimal (reference 002: the unscaled value as big-endian
        two's-complement bytes, Base64 in JSON) as exact decimal text
        `<unscaled>E-<scale>`, which Spark casts to a decimal type. Null when
        `encoded` or `scale` is null, `encoded` is not Base64 or decodes to no
        bytes, or the value needs more than 16 bytes (beyond decimal(38)).
        Native Spark SQL: the bytes' hex digits, sign-extended to 32 (16 bytes),
        read as a signed 64-bit high half (conv to base -10) times 2^64 plus an
        unsigned low half, in decimal(38, 0). `digits`: those hex digits when the
        caller has them already (a column), which spares decoding the Base64 at
        each of their ten uses (Spark does not share them across branches). -#}
    {%- set digits = digits or "hex(try_to_binary(" ~ encoded ~ ", 'base64'))" -%}
    {%- set padded = "lpad(" ~ digits ~ ", 32, case when " ~ digits ~ " >= '8' then 'F' else '0' end)" -%}
    {%- set high = "cast(conv(left(" ~ padded ~ ", 16), 16, -10) as decimal(20, 0))" -%}
    {%- set low = "cast(conv(right(" ~ padded ~ ", 16), 16, 10) as decimal(20, 0))" -%}
    {%- set two_64 = "cast(18446744073709551616 as decimal(20, 0))" %}
    if(
        length({{ digits }}) between 1 and 32,
        concat(
            cast(
                if(
                    {{ digits }} >= '8',
                    -- negative: (high + 1) * 2^64 + (low - 2^64), so that no step exceeds the value
                    try_add(try_multiply({{ high }} + 1, {{ two_64 }}), {{ low }} - {{ two_64 }}),
                    try_add(try_multiply({{ high }}, {{ two_64 }}), {{ low }})
                ) as string
            ),
            'E',
            cast(-({{ scale }}) as string)
        ),
        null
    )
{%- endmacro %}
