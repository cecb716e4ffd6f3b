{% macro scd1_current(table_name) %}
    {{ return(adapter.dispatch('scd1_current', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__scd1_current(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.layout_macro('current_model')(table_name)) }}
{%- endmacro %}
