{% macro dirxml_source_rows(relation, cfg) %}
    {#- The rows of a source table that query-back events read (its current
        contents), with the configured columns as their configured types. Read
        with a DESCRIBE when the model runs: a column landed as text (a CSV or
        text extract) is converted like an event value (binary from Base64).
        The caller checks first that every configured column is there
        (dirxml_table_problem). -#}
    {%- set landed_types = {} -%}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {%- for column in cdcflow.landed_columns(relation) -%}
            {%- do landed_types.update({column.name | lower: column.dtype | lower}) -%}
        {%- endfor -%}
    {%- endif %}
    select
        {%- for column, data_type in cfg.columns.items() %}
        {%- if landed_types.get(column | lower) == 'string' and data_type | lower != 'string' %}
        {{ cdcflow.text_as_type(adapter.quote(column), data_type) }} as {{ column }}
        {%- else %}
        cast({{ adapter.quote(column) }} as {{ data_type }}) as {{ column }}
        {%- endif %}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ relation }}
{%- endmacro %}
