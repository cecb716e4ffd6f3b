{% macro groups_with_nothing_new() %}
    {#- The CDC groups with nothing new in the running invocation
        (record_groups_with_nothing_new); none when unknown (another run's
        setting, or a session that does not keep it). -#}
    {%- set value = run_query('set ' ~ cdcflow.nothing_new_setting(cdcflow.cdc_state_relations()))[0][1] -%}
    {%- set prefix = invocation_id ~ ':' -%}
    {%- if not value.startswith(prefix) or value == prefix -%}
        {{ return([]) }}
    {%- endif -%}
    {{ return(value[prefix | length:].split(',')) }}
{% endmacro %}
