{% test one_current_version_per_key(model, key_columns) %}
    {#- Fails on every key with more than one current version. -#}
    select {{ key_columns | join(', ') }}, count(*) as current_versions
    from {{ model }}
    where is_current
    group by {{ key_columns | join(', ') }}
    having count(*) > 1
{% endtest %}
