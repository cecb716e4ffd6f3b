{% macro cdc_state_end_run(results) %}
    {#- on-run-end: every CDC group that took a range in this run records how it
        ended: TFEND (MarkProcessedRange: the next range starts at this CE) when
        all its models succeeded (a format may hold back the end of the range:
        its entry point's held_back_from, e.g. a Qlik Kafka transaction not
        landed whole), else ERROR with the first failure as a short ER text (the
        next run takes the range again, as TFREDO, with what landed since). A run killed
        before this point leaves TFSTART (or TFREDO, ILUPDATE): the next run
        finds it and reprocesses the range. Then what the run did, per group,
        is recorded and logged (record_run_summaries), with the configured columns
        each group's tables follow (record_columns_checked), and the run's claim on
        the groups dropped (claim_cdc_run; on the embedded session, noted in dbt's
        graph, it made none). A group with nothing new
        (record_groups_with_nothing_new) keeps its range's start. A run that stopped at its start
        because another run holds the groups records nothing. -#}
    {%- set groups = cdcflow.cdc_groups_in_run() if execute else [] -%}
    {%- if groups | length == 0 -%}
        {{ return('') }}
    {%- endif -%}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- set claimed_in_process = graph.get('cdcflow_claimed_in_process') == invocation_id -%}
    {%- if not claimed_in_process -%}
        {%- set claim = cdcflow.cdc_run_claim(relations) -%}
        {%- if claim is none or claim['invocation_id'] != invocation_id -%}
            {{ return('') }}  {#- stopped at its start: another run holds the groups -#}
        {%- endif -%}
    {%- endif -%}
    {%- set latest = cdcflow.latest_cdc_states(relations) -%}
    {%- set now = modules.datetime.datetime.utcnow().isoformat(sep=' ') -%}
    {%- set nothing_new = cdcflow.groups_with_nothing_new() -%}
    {%- set inputs = [] -%}
    {%- for table_name in groups
        if table_name in latest and latest[table_name]['state_name'] in ['ILUPDATE', 'TFSTART', 'TFREDO'] -%}
        {%- set failures = [] -%}
        {%- set models = cdcflow.cdc_group_models(table_name) -%}
        {%- for result in results
            if result.node.resource_type == 'model' and result.node.name in models
            and result.status in ['error', 'skipped'] -%}
            {%- do failures.append(cdcflow.short_failure_text(result)) -%}
        {%- endfor -%}
        {%- set hold_back = cdcflow.source_format(cdcflow.table_config(table_name).format).held_back_from -%}
        {%- if failures -%}
            {%- set held_back_from = none -%}
        {%- elif table_name in nothing_new -%}
            {#- nothing read: the next range starts where this one started -#}
            {%- set held_back_from = latest[table_name]['current_start_lsn'][2:] | int(0, 16) -%}
        {%- else -%}
            {%- set held_back_from = none if hold_back is none else hold_back(table_name, latest[table_name]) -%}
        {%- endif -%}
        {%- do inputs.append([
            cdcflow.sql_string(table_name), cdcflow.sql_string(latest[table_name]['state']),
            cdcflow.sql_string(failures[0] if failures else none),
            held_back_from | string if held_back_from is not none else 'cast(null as bigint)']) -%}
    {%- endfor -%}
    {%- if inputs -%}
        {%- set transitions -%}
            select run.name, ended.*
            from {{ cdcflow.values_table(inputs, 'run', ['name', 'state', 'error', 'processed_end']) }}
            lateral view inline(
                cdcflow_cdc_state_end_run(run.state, run.error, run.processed_end, '{{ now }}')
            ) ended
        {%- endset -%}
        {%- for row in cdcflow.record_cdc_states(relations, transitions) -%}
            {%- do latest.update({row['name']: row}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- do cdcflow.record_run_summaries(relations, groups, nothing_new, latest) -%}
    {%- do cdcflow.record_columns_checked(relations, groups, latest) -%}
    {%- if not claimed_in_process -%}
        {%- do run_query('drop view if exists ' ~ relations.claim) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
