{% macro default__merged_valid_versions(versions, versioned, key_columns) %}
    {#- history_view's versions on Delta Lake and Iceberg: the chain holds one
        copy of each link, so every row of `versions` is valid. -#}
    {{ return('select * from ' ~ versions ~ ' as version') }}
{% endmacro %}
