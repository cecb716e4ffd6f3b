{% macro decode_change_mask_native(mask, columns, first_bit=0) %}
    {#- Spark SQL implementation of decode_change_mask: one bit test per column
        (per array element when `columns` is a SQL expression). -#}
    case
        when {{ mask }} is not null then filter(
            {%- if columns is string %}
            transform(
                {{ columns }},
                (_cdcflow_column, _cdcflow_bit) -> case
                    when {{ cdcflow.mask_bit_is_set(mask, '_cdcflow_bit + ' ~ first_bit) }} then _cdcflow_column
                end
            ),
            {%- else %}
            array(
                {%- for column in columns %}
                case when {{ cdcflow.mask_bit_is_set(mask, first_bit + loop.index0) }} then '{{ column }}' end
                {{- ',' if not loop.last }}
                {%- endfor %}
            ),
            {%- endif %}
            changed_column -> changed_column is not null
        )
    end
{%- endmacro %}
