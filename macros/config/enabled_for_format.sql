{% macro enabled_for_format(source_format) %}
    {#- Whether a model every table of `source_format` shares (a quarantine, the
        DirXML outcomes, Qlik Kafka's table versions, a format's parsed messages)
        has a table to work for. Without one, the model disables itself: the
        package installed in a project without tables of the format builds
        nothing for it. -#}
    {%- if cdcflow.tables_of_format(source_format) | length > 0 -%}
        {{ return(true) }}
    {%- endif -%}
    {%- do config(enabled=false) -%}
    {{ return(false) }}
{% endmacro %}
