{% macro table_model_name(table_name, role) %}
    {#- The name of configured table `table_name`'s model of role `role`: the
        pattern of the role's layer in format_registry (the one place a model's
        name is built; launcher/format_registry.py's model_name, for onboard). -#}
    {%- set registry = cdcflow.format_registry() -%}
    {%- set fmt = (var('cdcflow_tables', {}).get(table_name) or {}).get('format') -%}
    {%- set layers = dict(registry.formats.get(fmt, {}).get('roles', {})) -%}
    {%- do layers.update(registry.table_roles) -%}
    {%- if role not in layers -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' (format " ~ fmt ~ ") has no model of role '" ~ role
            ~ "' (roles: " ~ layers.keys() | sort | join(', ') ~ ")."
        ) }}
    {%- endif -%}
    {{ return(registry.layer_patterns[layers[role]]
        | replace('{table}', table_name) | replace('{format}', fmt or '') | replace('{role}', role)) }}
{% endmacro %}
