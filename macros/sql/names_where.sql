{% macro names_where(names, condition) %}
    {#- array<string> of the `names` (a list, kept in its order) for which the SQL
        boolean `condition` holds; `condition` says `{name}` for the name in hand
        (replaced by it as a string literal) and `{index}` for its place in the
        list (from 0). Written out per name rather than as
        filter() with a lambda function, which keeps Spark from compiling the
        stage it sits in; flatten() of one- and zero-element arrays, which needs
        no hash set (array_except(…, array(null)) did). -#}
    {%- if names is string -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow.names_where: `names` must be a list of names, got the string '" ~ names ~ "'."
        ) }}
    {%- endif -%}
    {%- if names | length == 0 -%}
        {{ return('cast(array() as array<string>)') }}
    {%- endif %}
    flatten(array(
        {%- for name in names %}
        {%- set literal = cdcflow.sql_string(name) %}
        {%- set holds = condition.replace('{name}', literal).replace('{index}', loop.index0 | string) %}
        case when {{ holds }} then array({{ literal }}) else cast(array() as array<string>) end
        {{- ',' if not loop.last }}
        {%- endfor %}
    ))
{%- endmacro %}
