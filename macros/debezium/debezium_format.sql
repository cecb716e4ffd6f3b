{% macro debezium_format() %}
    {#- Entry point of Debezium SQL Server change events (see source_format):
        what only its macros can say; its data are in format_registry. -#}
    {{ return({
        'name': 'debezium',
        'held_back_from': none,
    }) }}
{% endmacro %}
