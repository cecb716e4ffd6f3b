{% macro dirxml_source_rows(relation, cfg) %}
    {#- The rows of a source table that query-back events read (its current
        contents), with the configured columns as their configured types. Read
        with a DESCRIBE when the model runs: a column landed as text (a CSV or
        text extract) is converted like an event value (binary from Base64); a
        configured column missing from the table stops the run with a message. -#}
    {%- set landed_types = {} -%}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {%- for column in adapter.get_columns_in_relation(relation) -%}
            {%- do landed_types.update({column.name | lower: column.dtype | lower}) -%}
        {%- endfor -%}
        {%- for column in cfg.column_names if landed_types and column | lower not in landed_types -%}
            {{ exceptions.raise_compiler_error(
                "cdcflow: column '" ~ column ~ "' of table '" ~ cfg.name ~ "' is not in its source table "
                ~ relation ~ " (its columns: " ~ landed_types.keys() | list | join(', ') ~ "); query-back "
                ~ "events read the row from there (set query_back_table if it has another name)."
            ) }}
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
