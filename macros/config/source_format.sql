{% macro source_format(name) %}
    {#- The one way from the format-independent macros into a vendor folder:
        format `name`'s entry in format_registry (the settings naming its raw
        tables and their defaults, its quarantine, ...) with what its entry
        point's macros add (held_back_from). -#}
    {%- set entry_points = cdcflow.source_formats() -%}
    {%- if name not in entry_points -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: unknown format '" ~ name ~ "'; expected one of: " ~ entry_points.keys() | join(', ') ~ "."
        ) }}
    {%- endif -%}
    {%- set entry = dict(cdcflow.format_registry().formats[name]) -%}
    {%- do entry.update(entry_points[name]()) -%}
    {{ return(entry) }}
{% endmacro %}
