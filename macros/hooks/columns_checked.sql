{% macro columns_checked(relations) %}
    {#- CDC group -> the fingerprint (configured_columns_fingerprint) of the
        configuration its tables were last found to follow, as recorded by the
        last run that ended (record_columns_checked): the run summaries' table
        properties cdcflow.columns_checked.<group>, read from dbt's relation
        cache, the listing of the schema dbt made at the start of the run (no
        statement of its own). Empty where the listing holds no properties. -#}
    {%- set prefix = 'cdcflow.columns_checked.' -%}
    {%- set runs = adapter.get_relation(relations.runs.database, relations.runs.schema, relations.runs.identifier) -%}
    {%- set information = (runs.information if runs is not none else none) or '' -%}
    {%- set found = modules.re.search('Table Properties: \\[([^\\]\\n]*)\\]', information) -%}
    {%- set checked = {} -%}
    {%- for pair in (found.group(1).split(', ') if found else []) if pair.startswith(prefix) and '=' in pair -%}
        {%- set name, value = pair[prefix | length:].split('=', 1) -%}
        {%- do checked.update({name: value}) -%}
    {%- endfor -%}
    {{ return(checked) }}
{% endmacro %}
