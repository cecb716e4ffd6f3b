{% macro debezium_event_schema() %}
    {#- The from_json schema of a landed Debezium event: the Connect `schema`
        kept as JSON text, the `payload`, and the payload's fields again at the
        top level, where they are when the converter's schemas are disabled. -#}
    {%- set fields = [] -%}
    {%- for name, type in cdcflow.debezium_payload_fields() -%}
        {%- do fields.append(name ~ ': ' ~ type) -%}
    {%- endfor -%}
    {{- return(
        'struct<schema: string, payload: struct<' ~ fields | join(', ') ~ '>, '
        ~ fields | join(', ') ~ ', _corrupt_record: string>'
    ) -}}
{% endmacro %}
