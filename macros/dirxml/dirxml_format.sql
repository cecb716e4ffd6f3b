{% macro dirxml_format() %}
    {#- Entry point of the DirXML JDBC driver's event log (see source_format):
        what only its macros can say; its data are in format_registry. -#}
    {{ return({
        'name': 'dirxml',
        'held_back_from': none,
    }) }}
{% endmacro %}
