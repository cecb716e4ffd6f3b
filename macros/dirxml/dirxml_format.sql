{% macro dirxml_format() %}
    {#- Entry point of the DirXML JDBC driver's event log (see source_format). -#}
    {{ return({
        'name': 'dirxml',
        'default_raw_table': 'dirxml_event_log',
        'raw_table_settings': ['raw_table'],
        'may_omit_columns': true,
        'shared_models': ['dirxml_quarantine', 'dirxml_event_outcomes'],
        'required_models': ['stg_dirxml__{table}_events'],
        'held_back_from': none,
    }) }}
{% endmacro %}
