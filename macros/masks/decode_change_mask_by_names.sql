{% macro decode_change_mask_by_names(mask, columns, bits, names_by_bit) %}
    {#- array<string> of the `columns` (a list of names, kept in its order) whose
        bit is set in the binary `mask`, when the bits vary per row (Qlik Kafka:
        a column's bit is its position in the metadata message in effect, bit 0 =
        ordinal 1). `bits` is a SQL array<int> of the columns' bits, in the order
        of `columns` (-1: the column has none, it is not set); `names_by_bit` the
        SQL array<string> of the names in bit order (for the UDF). Null when
        `mask` or `bits` is null. Implementation per var('cdcflow_mask_decoder'),
        like decode_change_mask. -#}
    {%- if columns is string or columns | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.decode_change_mask_by_names: `columns` must be a non-empty list of column names, got "
            ~ columns ~ "."
        ) }}
    {%- endif -%}
    case
        when {{ mask }} is not null and {{ bits }} is not null then
        {%- if var('cdcflow_mask_decoder', 'native') == 'udf' %}
            array_intersect(
                {{ cdcflow.string_array(columns) }}, {{ cdcflow.decode_change_mask_udf(mask, names_by_bit) }}
            )
        {%- else %}
            {%- set bit = bits ~ '[{index}]' %}
            {{ cdcflow.names_where(columns, bit ~ ' >= 0 and ' ~ cdcflow.mask_bit_is_set(mask, bit)) }}
        {%- endif %}
    end
{%- endmacro %}
