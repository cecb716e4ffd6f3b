{% macro decode_change_mask_native(mask, columns, first_bit=0) %}
    {#- Spark SQL implementation of decode_change_mask: one bit test per column. -#}
    case
        when {{ mask }} is not null then filter(
            array(
                {%- for column in columns %}
                case when {{ cdcflow.mask_bit_is_set(mask, first_bit + loop.index0) }} then '{{ column }}' end
                {{- ',' if not loop.last }}
                {%- endfor %}
            ),
            changed_column -> changed_column is not null
        )
    end
{%- endmacro %}
