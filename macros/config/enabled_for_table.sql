{% macro enabled_for_table() %}
    {#- Whether the per-table model being parsed belongs to the root project: a
        project's onboarded tables are built only there (their properties say so:
        `enabled: project_name == ...`, written by cdcflow onboard). Installed as a
        package, cdcflow's samples are parsed with a configuration that does not
        have their tables: their macros return a placeholder instead of reading it,
        and their properties disable them. -#}
    {{ return(model is not defined or model.package_name is not defined or model.package_name == project_name) }}
{% endmacro %}
