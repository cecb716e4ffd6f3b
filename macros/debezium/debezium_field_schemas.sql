{% macro debezium_field_schemas(schema_json) %}
    {#- SQL giving, from a Debezium event's Connect schema (`schema_json`, JSON
        text), its row fields (those of `before` or `after`) by lower-cased
        column name: map of name to struct(type, name, parameters). Null without
        a schema. Meant for each distinct schema once: the lambda functions are
        interpreted. -#}
    map_from_entries(
        transform(
            try_element_at(
                filter(
                    from_json(
                        {{ schema_json }},
                        'struct<fields: array<struct<field: string, fields: array<struct<'
                        || 'field: string, type: string, name: string, parameters: map<string, string>>>>>>'
                    ).fields,
                    f -> f.field in ('after', 'before')
                ),
                1
            ).fields,
            f -> struct(lower(f.field), struct(f.type as type, f.name as name, f.parameters as parameters))
        )
    )
{%- endmacro %}
