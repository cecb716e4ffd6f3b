{% macro groups_with_nothing_new() %}
    {#- The CDC groups with nothing new in the running invocation
        (record_groups_with_nothing_new); none when unknown (another run's
        setting, or a session that does not keep it). Within the dbt process that
        recorded them, read from its note in `graph` (no statement: a node of an
        idle group then runs none, and over Thrift opens no session); else from
        the session setting. -#}
    {%- set noted = graph.get('cdcflow_nothing_new') -%}
    {%- if noted and noted.invocation_id == invocation_id -%}
        {{ return(noted.groups) }}
    {%- endif -%}
    {%- set value = run_query('set ' ~ cdcflow.nothing_new_setting(cdcflow.cdc_state_relations()))[0][1] -%}
    {%- set prefix = invocation_id ~ ':' -%}
    {%- if not value.startswith(prefix) or value == prefix -%}
        {{ return([]) }}
    {%- endif -%}
    {{ return(value[prefix | length:].split(',')) }}
{% endmacro %}
