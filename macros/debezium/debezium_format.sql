{% macro debezium_format() %}
    {#- Entry point of Debezium SQL Server change events (see source_format). -#}
    {{ return({
        'name': 'debezium',
        'default_raw_table': 'debezium_events',
        'raw_table_settings': ['raw_table'],
        'may_omit_columns': true,
        'relogs_changes': false,
        'relogs_other_operation': false,
        'held_back_from': none,
    }) }}
{% endmacro %}
