{% macro spark__load_csv_rows(model, agate_table) %}
    {#- dbt-spark's seed loader, except that an empty CSV cell is loaded as null:
        the adapter's version binds Python None, which the session connection
        writes as the text 'None' (a Kafka tombstone, a missing before image
        would not be null). Dispatch picks this project's version first. -#}
    {%- set batch_size = get_batch_size() -%}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(batch_size) -%}
        {%- set bindings = [] -%}
        {%- for row in chunk -%}
            {%- for value in row if value is not none -%}
                {%- do bindings.append(value) -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set data_type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    {%- if row[loop.index0] is none -%}
                        cast(null as {{ data_type }})
                    {%- else -%}
                        cast({{ get_binding_char() }} as {{ data_type }})
                    {%- endif -%}
                    {{- ',' if not loop.last }}
                {%- endfor -%})
                {{- ',' if not loop.last }}
            {%- endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, bindings=bindings, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}
            {%- do statements.append(sql) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(statements[0]) }}
{% endmacro %}
