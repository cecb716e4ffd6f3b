{% macro qlik_ct_format() %}
    {#- Entry point of Qlik Replicate __ct change tables (see source_format). -#}
    {{ return({
        'name': 'qlik_ct',
        'default_raw_table': none,
        'raw_table_settings': ['change_table', 'full_load_table'],
        'may_omit_columns': false,
        'relogs_changes': true,
        'relogs_other_operation': true,
        'held_back_from': none,
    }) }}
{% endmacro %}
