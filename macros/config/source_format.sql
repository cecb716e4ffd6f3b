{% macro source_format(name) %}
    {#- The one way from the format-independent macros into a vendor folder:
        format `name`'s entry point, a dict of what they need to know of it
        (default raw table, the settings naming its raw tables, its models shared
        by every table of the format, ...). -#}
    {%- set entry_points = cdcflow.source_formats() -%}
    {%- if name not in entry_points -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: unknown format '" ~ name ~ "'; expected one of: " ~ entry_points.keys() | join(', ') ~ "."
        ) }}
    {%- endif -%}
    {{ return(entry_points[name]()) }}
{% endmacro %}
