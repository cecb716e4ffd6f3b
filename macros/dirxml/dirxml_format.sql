{% macro dirxml_format() %}
    {#- Entry point of the DirXML JDBC driver's event log (see source_format). -#}
    {{ return({
        'name': 'dirxml',
        'default_raw_table': 'dirxml_event_log',
        'raw_table_settings': ['raw_table'],
        'may_omit_columns': true,
        'relogs_changes': true,
        'relogs_other_operation': false,
        'held_back_from': none,
    }) }}
{% endmacro %}
