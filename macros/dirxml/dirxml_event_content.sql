{% macro dirxml_event_content(raw_row) %}
    {#- What two deliveries of one DirXML event (one record_id) must agree on:
        the landed row as JSON (`raw_row`), less the load-time column that var
        cdcflow_landed_at may name (a second load of the same event differs
        there only). -#}
    {%- set landed_at = var('cdcflow_landed_at', '_metadata.file_modification_time') -%}
    {%- if modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', landed_at) -%}
        to_json(map_filter(from_json({{ raw_row }}, 'map<string, string>'), (name, value) -> lower(name) <> '{{ landed_at | lower }}'))
    {%- else -%}
        {{ raw_row }}
    {%- endif -%}
{%- endmacro %}
