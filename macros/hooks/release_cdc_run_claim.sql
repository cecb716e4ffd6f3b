{% macro release_cdc_run_claim(invocation_id) %}
    {#- `dbt run-operation cdcflow.release_cdc_run_claim --args "{invocation_id: ID}"`:
        clears the claim a killed run left over a server (claim_cdc_run), so that
        the next run may start. Only the claim of the invocation named: a run that
        claimed the groups since is left alone. The groups' next run takes the
        killed run's range again (TFREDO). -#}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- set holder = cdcflow.cdc_run_claim(relations) -%}
    {%- if holder is none -%}
        {{ log('cdcflow: no run holds the CDC groups of ' ~ relations.claim.schema ~ '; nothing to clear', info=true) }}
    {%- elif holder['invocation_id'] != invocation_id -%}
        {%- do exceptions.raise_compiler_error(
            'cdcflow: the CDC groups of ' ~ relations.claim.schema ~ ' are held by dbt invocation '
            ~ holder['invocation_id'] ~ ' (`' ~ holder['command'] ~ '`, started ' ~ holder['started_at']
            ~ ' UTC), not by ' ~ invocation_id ~ '; nothing cleared'
        ) -%}
    {%- else -%}
        {%- do run_query('drop view if exists ' ~ relations.claim) -%}
        {{ log('cdcflow: cleared the claim of dbt invocation ' ~ invocation_id ~ ' (groups ' ~ holder['cdc_groups']
            ~ '); their next run takes its range again', info=true) }}
    {%- endif -%}
{% endmacro %}
