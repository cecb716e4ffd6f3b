{% macro spark__load_csv_rows(model, agate_table) %}
    {#- dbt-spark's seed loader, except that every value is written as an escaped
        SQL literal instead of a binding: an empty CSV cell is loaded as null (the
        adapter binds Python None, which the session connection writes as the
        text 'None'), and a value with a quote or a backslash (a DirXML table_key
        such as role="sales, \"north\"") arrives exactly as in the CSV (the session
        connection pastes bindings between quotes unescaped). Dispatch picks this
        project's version first. -#}
    {%- set batch_size = get_batch_size() -%}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(batch_size) -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set data_type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    {%- set value = row[loop.index0] -%}
                    {%- if value is none -%}
                        cast(null as {{ data_type }})
                    {%- else -%}
                        cast('{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}' as {{ data_type }})
                    {%- endif -%}
                    {{- ',' if not loop.last }}
                {%- endfor -%})
                {{- ',' if not loop.last }}
            {%- endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}
            {%- do statements.append(sql) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(statements[0]) }}
{% endmacro %}
