{% macro claim_cdc_run(relations, groups) %}
    {#- One run at a time: before it takes a processing range, a run claims the
        CDC groups of its schema by creating the claim view (`<state table>_claim`)
        naming it. Creating a view is one atomic step of the metastore: of two
        runs starting together, one creates it and both read it back, so exactly
        one goes on. The other stops here, before it has changed anything, with a
        message naming the run that holds the groups. The claim is dropped at the
        end of the run that made it (cdc_state_end_run).

        A run killed before its end leaves its claim; over a server it may be a
        live run's: the message says how to clear it once that run is known dead
        (release_cdc_run_claim). On the launcher's embedded session
        (embedded_session) no other process can run: the run makes no claim (it
        notes in dbt's graph that it holds the groups, for cdc_state_end_run), and
        a claim found there, left by a run killed over a server, is taken over. -#}
    {%- if cdcflow.embedded_session() -%}
        {%- if adapter.get_relation(relations.claim.database, relations.claim.schema, relations.claim.identifier)
            is not none -%}
            {%- set holder = cdcflow.cdc_run_claim(relations) -%}
            {%- if holder is not none -%}
                {{ log('cdcflow: taking over the claim of dbt invocation ' ~ holder['invocation_id'] ~ ' (`'
                    ~ holder['command'] ~ '`, started ' ~ holder['started_at'] ~ ' UTC, groups ' ~ holder['cdc_groups']
                    ~ '), left by a run that was killed (this embedded session holds its state folder alone)',
                    info=true) }}
            {%- endif -%}
            {%- do run_query('drop view if exists ' ~ relations.claim) -%}
            {%- do adapter.cache_dropped(relations.claim) -%}
        {%- endif -%}
        {%- do graph.update({'cdcflow_claimed_in_process': invocation_id}) -%}
        {{ return('') }}
    {%- endif -%}
    {%- set command = ['dbt', invocation_args_dict.get('which', '')] -%}
    {%- if invocation_args_dict.get('select') -%}
        {%- do command.extend(['--select'] + invocation_args_dict['select'] | list) -%}
    {%- endif -%}
    {%- if invocation_args_dict.get('selector') -%}
        {%- do command.extend(['--selector', invocation_args_dict['selector']]) -%}
    {%- endif -%}
    {%- set command = command | join(' ') -%}
    {%- set create_claim -%}
        create view if not exists {{ relations.claim }}
        comment 'cdcflow: the run that holds the CDC groups of this schema; dropped when it ends'
        as select
            {{ cdcflow.sql_string(invocation_id) }} as invocation_id,
            timestamp'{{ modules.datetime.datetime.utcnow().isoformat(sep=' ') }}' as started_at,
            {{ cdcflow.sql_string(groups | join(', ')) }} as cdc_groups,
            {{ cdcflow.sql_string(command) }} as command
    {%- endset -%}
    {%- do run_query(create_claim) -%}
    {%- set holder = cdcflow.cdc_run_claim(relations) -%}
    {%- if holder is not none and holder['invocation_id'] == invocation_id -%}
        {{ return('') }}
    {%- endif -%}
    {%- set held_by = 'dbt invocation ' ~ holder['invocation_id'] ~ ' (`' ~ holder['command'] ~ '`, started '
        ~ holder['started_at'] ~ ' UTC, groups ' ~ holder['cdc_groups'] ~ ')' if holder is not none
        else 'a run that ended just now' -%}
    {%- do exceptions.raise_compiler_error(
        'cdcflow: another run holds the CDC groups of ' ~ relations.claim.schema ~ ': ' ~ held_by ~ '. Two runs at'
        ~ ' once would take the same processing ranges, so this one stops before changing anything. Wait for that'
        ~ ' run to end. If it was killed (and none of its statements still runs on the server), clear its claim,'
        ~ ' then run again: dbt run-operation cdcflow.release_cdc_run_claim --args "{invocation_id: '
        ~ (holder['invocation_id'] if holder is not none else '') ~ '}"'
    ) -%}
{% endmacro %}
