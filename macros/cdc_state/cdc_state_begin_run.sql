{% macro cdc_state_begin_run() %}
    {#- on-run-start: every CDC group in this run takes its processing range
        (GetProcessingRange), recorded in the state table before any model runs.
        CE is fixed now: the landing position of the group's raw tables; rows
        landing during the run wait for the next one. A group whose previous run did not end (TFSTART, TFREDO, ERROR,
        ILUPDATE) takes the same range again with reprocessing on, and what that
        run may have left half-written is repaired first (cdc_group_repair). -#}
    {%- set groups = cdcflow.cdc_groups_in_run() if execute else [] -%}
    {%- if groups | length == 0 -%}
        {{ return('') }}
    {%- endif -%}
    {%- do cdcflow.check_required_models(groups) -%}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- do cdcflow.create_cdc_state_relations(relations) -%}
    {%- set latest = cdcflow.latest_cdc_states(relations) -%}
    {%- set ends = cdcflow.cdc_groups_landed_ends(groups) -%}
    {%- set now = modules.datetime.datetime.utcnow().isoformat(sep=' ') -%}
    {%- set inputs = [] -%}
    {%- for table_name in groups -%}
        {%- set previous = latest.get(table_name) -%}
        {%- do inputs.append('(' ~ cdcflow.sql_string(table_name) ~ ', '
            ~ cdcflow.sql_string(previous['state'] if previous else none) ~ ', '
            ~ (ends[table_name] | string if ends[table_name] is not none else 'cast(null as bigint)') ~ ')') -%}
    {%- endfor -%}
    {%- set transitions -%}
        select run.name, taken.*
        from values {{ inputs | join(', ') }} as run(name, state, landed_end)
        lateral view inline(cdcflow_cdc_state_begin_run(run.state, run.landed_end, '{{ now }}')) taken
    {%- endset -%}
    {%- set recorded = cdcflow.record_cdc_states(relations, transitions) -%}
    {%- for row in recorded if row['reprocessing'] and row['name'] in latest -%}
        {%- do cdcflow.cdc_group_repair(row['name']) -%}
    {%- endfor -%}
    {{ return('') }}
{% endmacro %}
