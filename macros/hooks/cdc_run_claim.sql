{% macro cdc_run_claim(relations) %}
    {#- The run holding the CDC groups of this schema (its claim view: invocation_id,
        started_at, cdc_groups, command), or none when no run does. -#}
    {%- set claim = relations.claim -%}
    {%- set found = run_query("show views in " ~ claim.schema ~ " like '" ~ claim.identifier | lower ~ "'") -%}
    {%- if found | length == 0 -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set rows = run_query(
        'select invocation_id, cast(started_at as string) as started_at, cdc_groups, command from ' ~ claim
    ) -%}
    {{ return(rows[0] if rows | length > 0 else none) }}
{% endmacro %}
