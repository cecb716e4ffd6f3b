{% macro qlik_kafka_names_table(message, cfg) %}
    {#- Boolean: the struct `message` (fields schema, table) names the configured
        table: its `source_table` (case-insensitive) and, when set, its
        `source_schema`. -#}
    lower({{ message }}.table) = lower('{{ cfg.source_table }}')
    {%- if cfg.source_schema %}
    and lower({{ message }}.schema) = lower('{{ cfg.source_schema }}')
    {%- endif %}
{%- endmacro %}
