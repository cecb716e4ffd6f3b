{% macro mask_as_binary(relation, column) %}
    {#- `column` as binary. Replicate writes change_mask as varbinary; targets that
        land text (and CSV seeds) carry it as a hex string, which is unhexed.
        Reads the column type with a DESCRIBE (not the relation cache, which does
        not yet know tables that seeds created in the same run). -#}
    {%- if execute -%}
        {%- for col in adapter.get_columns_in_relation(relation) -%}
            {%- if col.name | lower == column | lower and col.dtype | lower == 'string' -%}
                {{ return('unhex(' ~ column ~ ')') }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(column) }}
{% endmacro %}
