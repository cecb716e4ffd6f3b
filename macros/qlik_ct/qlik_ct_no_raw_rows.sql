{% macro qlik_ct_no_raw_rows(cfg, change_table) %}
    {#- In place of landed_raw_rows when a qlik_ct table cannot be read
        (qlik_ct_table_problem): no rows, with the columns a raw change table
        (`change_table`: the Replicate header columns, the mask as binary) or
        full-load table has by the configuration, so the staging compiles and
        writes nothing. -#}
    {%- set prefix = var('cdcflow_qlik_header_prefix', 'header__') -%}
    {%- set columns = [] -%}
    {%- if change_table -%}
        {%- for header in cfg.header_columns -%}
            {%- set data_type = {'change_mask': 'binary', 'timestamp': 'timestamp'}.get(header, 'string') -%}
            {%- do columns.append('cast(null as ' ~ data_type ~ ') as ' ~ prefix ~ header) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for name, data_type in cfg.columns.items() -%}
        {%- do columns.append('cast(null as ' ~ data_type ~ ') as ' ~ name) -%}
    {%- endfor -%}
    select
        {{ columns | join(',\n        ') }},
        cast(null as string) as _cdcflow_raw_row,
        cast(null as timestamp) as _cdcflow_landed_at
    where false
{%- endmacro %}
