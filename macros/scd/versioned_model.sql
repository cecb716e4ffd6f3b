{% macro versioned_model(table_name) %}
    {{ return(adapter.dispatch('versioned_model', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__versioned_model(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.layout_macro('versioned_model')(table_name)) }}
{% endmacro %}
