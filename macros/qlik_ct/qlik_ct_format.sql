{% macro qlik_ct_format() %}
    {#- Entry point of Qlik Replicate __ct change tables (see source_format). -#}
    {{ return({
        'name': 'qlik_ct',
        'default_raw_table': none,
        'raw_table_settings': ['change_table', 'full_load_table'],
        'may_omit_columns': false,
        'shared_models': ['qlik_ct_quarantine'],
        'required_models': ['stg_qlik_ct__{table}_changes', 'stg_qlik_ct__{table}_full_load'],
        'held_back_from': none,
    }) }}
{% endmacro %}
