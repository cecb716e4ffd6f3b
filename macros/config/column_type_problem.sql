{% macro column_type_problem(table_name, column, data_type) %}
    {#- Why the `columns:` entry `column: data_type` of a table cannot be a Spark
        column ('' when it can): a type that is missing, not text, or whose
        brackets do not close, or a name with a bracket or a comma. The usual
        cause is a YAML flow mapping split at the comma of `decimal(p,s)`; the
        message says so. `cdcflow onboard` renders it too
        (launcher/config_macros.py): onboard and a run refuse the same entries. -#}
    {%- set hint = " YAML splits a flow mapping ({...}) at every comma: `amount: decimal(12,2)` in one becomes"
        ~ " type 'decimal(12' and a column '2)' with no type; quote the type (\"decimal(12,2)\") or write one"
        ~ " column per line (vars.cdcflow_tables)." -%}
    {%- set where = "table '" ~ table_name ~ "' column '" ~ column ~ "'" -%}
    {%- if column is not string or '(' in column or ')' in column or ',' in column
        or '<' in column or '>' in column -%}
        {{ return(where ~ " is not a column name." ~ hint) }}
    {%- endif -%}
    {%- if data_type is not string or data_type | trim == '' -%}
        {{ return(where ~ " has no type (give a Spark type, e.g. bigint or \"decimal(12,2)\")." ~ hint) }}
    {%- endif -%}
    {%- if data_type.count('(') != data_type.count(')') or data_type.count('<') != data_type.count('>') -%}
        {{ return(where ~ " has type '" ~ data_type ~ "', whose brackets do not close." ~ hint) }}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
