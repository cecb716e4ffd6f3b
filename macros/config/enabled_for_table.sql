{% macro enabled_for_table() %}
    {#- Whether the per-table model being parsed is built: a project's onboarded
        tables are built only when it is the root project (installed as a package,
        cdcflow builds none of its samples). Otherwise it disables the model, before
        anything reads a table configuration the root project does not have. -#}
    {%- if model is not defined or model.package_name is not defined or model.package_name == project_name -%}
        {{ return(true) }}
    {%- endif -%}
    {%- do config(enabled=false) -%}
    {{ return(false) }}
{% endmacro %}
