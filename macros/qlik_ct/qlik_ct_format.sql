{% macro qlik_ct_format() %}
    {#- Entry point of Qlik Replicate __ct change tables (see source_format):
        what only its macros can say; its data are in format_registry. -#}
    {{ return({
        'name': 'qlik_ct',
        'held_back_from': none,
    }) }}
{% endmacro %}
