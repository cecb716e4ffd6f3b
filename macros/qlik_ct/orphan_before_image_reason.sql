{% macro orphan_before_image_reason() %}
    {#- The quarantine reason of a before image without its UPDATE: the
        quarantine writes it, the change log and qlik_ct_quarantine_resolved
        find those entries by it. -#}
    {{ return('before image has no UPDATE with the same change_seq') }}
{% endmacro %}
