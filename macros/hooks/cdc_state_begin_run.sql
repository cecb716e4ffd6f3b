{% macro cdc_state_begin_run() %}
    {#- on-run-start: every CDC group in this run takes its processing range
        (GetProcessingRange), recorded in the state table before any model runs.
        CE is fixed now: the landing position of the group's raw tables; rows
        landing during the run wait for the next one. A group whose previous run did not end (TFSTART, TFREDO, ERROR,
        ILUPDATE) takes its range again, extended to what has landed since, with reprocessing on, and what that
        run may have left half-written is repaired first (cdc_group_repair).
        A group one of whose raw tables does not exist reads nothing: it takes
        an empty range (CE = CS) and records ERROR at once, naming the table,
        never TFEND over a range it did not read; its next run takes the range
        again up to the landing end of then (an empty range is not worth reading
        again), so what lands meanwhile is read by that run. One run at a time:
        the run claims the groups first, and stops if another run holds them
        (claim_cdc_run). A state log of many files is compacted, with the run
        summaries (compact_cdc_state_table). A configured column a group's change log or versioned
        model lacks is added to it before any model runs (follow_configured_columns;
        a group with nothing new in this run, record_groups_with_nothing_new: by
        its models' pre-hooks, unless its configured columns are those the last
        run found its tables to follow: columns_checked). A group one of whose
        models does not exist is built from scratch (record_groups_built_from_scratch):
        its staging reads every landed row, and it never has nothing new. -#}
    {%- set groups = cdcflow.cdc_groups_in_run() if execute else [] -%}
    {%- if groups | length == 0 -%}
        {{ return('') }}
    {%- endif -%}
    {%- do cdcflow.check_functions_registered() -%}
    {%- do cdcflow.check_required_models(groups) -%}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- do cdcflow.create_cdc_state_relations(relations) -%}
    {%- do cdcflow.claim_cdc_run(relations, groups) -%}
    {%- set latest = cdcflow.latest_cdc_states(relations, with_last_ends=true) -%}
    {#- read before a compaction, which rewrites the run summaries without their properties -#}
    {%- set columns_recorded = cdcflow.columns_checked(relations) -%}
    {%- set recorded_before = latest.values() | list -%}
    {%- set compacting = recorded_before
        and recorded_before[0]['log_files'] > var('cdcflow_state_table_max_files', 32) | int -%}
    {%- if compacting -%}
        {%- do cdcflow.compact_cdc_state_table(relations.log) -%}
        {%- do cdcflow.compact_cdc_state_table(relations.runs) -%}
    {%- endif -%}
    {%- set ends = cdcflow.cdc_groups_landed_ends(groups) -%}
    {%- set now = modules.datetime.datetime.utcnow().isoformat(sep=' ') -%}
    {%- set inputs = [] -%}
    {%- for table_name in groups -%}
        {%- set previous = latest.get(table_name) -%}
        {%- do inputs.append([
            cdcflow.sql_string(table_name), cdcflow.sql_string(previous['state'] if previous else none),
            ends[table_name].end | string if ends[table_name].end is not none and not ends[table_name].missing
            else 'cast(null as bigint)']) -%}
    {%- endfor -%}
    {%- set transitions -%}
        select run.name, taken.*
        from {{ cdcflow.values_table(inputs, 'run', ['name', 'state', 'landed_end']) }}
        lateral view inline(cdcflow_cdc_state_begin_run(run.state, run.landed_end, '{{ now }}')) taken
    {%- endset -%}
    {%- set recorded = cdcflow.record_cdc_states(relations, transitions) -%}
    {%- set taken = {} -%}
    {%- for row in recorded -%}
        {%- do taken.update({row['name']: row}) -%}
    {%- endfor -%}
    {%- set failed = [] -%}
    {%- for table_name in groups -%}
        {%- set missing = ends[table_name].missing -%}
        {%- if missing -%}
            {%- do failed.append([
                cdcflow.sql_string(table_name), cdcflow.sql_string(taken[table_name]['state']),
                cdcflow.sql_string('raw table ' ~ missing | join(', ') ~ ' does not exist: a misspelt name,'
                    ~ ' or not landed yet (the next run reads it once it has landed)')]) -%}
        {%- elif taken[table_name]['reprocessing'] and table_name in latest -%}
            {%- do cdcflow.cdc_group_repair(table_name) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set read_in_full = [] -%}
    {%- for table_name in groups if ends[table_name].read_in_full -%}
        {%- do read_in_full.append(cdcflow.sql_string(table_name)) -%}
    {%- endfor -%}
    {%- set last_ends = {} -%}
    {%- for name, row in latest.items() if row['last_end_lsn'] -%}
        {%- do last_ends.update({name: row['last_end_lsn']}) -%}
    {%- endfor -%}
    {#- a group one of whose models is missing reads every landed row, whatever landed since -#}
    {%- set built_from_scratch = [] -%}
    {%- for table_name in cdcflow.record_groups_built_from_scratch(groups) -%}
        {%- do built_from_scratch.append(cdcflow.sql_string(table_name)) -%}
    {%- endfor -%}
    {%- set nothing_new = cdcflow.record_groups_with_nothing_new(
        relations, taken, failed | map(attribute=0) | list + read_in_full + built_from_scratch, last_ends) -%}
    {#- of the groups with nothing new, those whose configured columns are the ones
        their tables were last found to follow: their models' pre-hooks check
        nothing (follow_configured_columns) -#}
    {%- set still_followed = [] -%}
    {%- for table_name in nothing_new
        if columns_recorded.get(table_name) == cdcflow.configured_columns_fingerprint(table_name) -%}
        {%- do still_followed.append(table_name) -%}
    {%- endfor -%}
    {#- `recorded`: what the run summaries' properties hold now (none once compacted) -#}
    {%- do graph.update({'cdcflow_columns_checked': {
        'invocation_id': invocation_id, 'recorded': {} if compacting else columns_recorded,
        'groups': still_followed}}) -%}
    {#- a column configured since: added to the stored tables before any model reads
        them (a group with nothing new: by its models' pre-hooks, which still run) -#}
    {%- for table_name in groups if table_name not in nothing_new -%}
        {%- for model_kind, name in [('change_log', cdcflow.table_model_name(table_name, 'changes_logged')),
                                     ('versioned', cdcflow.table_model_name(table_name, 'versioned'))] -%}
            {%- set relation = cdcflow.model_relation(name) -%}
            {%- if relation is not none -%}
                {%- do cdcflow.follow_configured_columns(relation, table_name, model_kind, check_dropped=false) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if failed -%}
        {%- set errors -%}
            select run.name, ended.*
            from {{ cdcflow.values_table(failed, 'run', ['name', 'state', 'error']) }}
            lateral view inline(cdcflow_cdc_state_end_run(run.state, run.error, cast(null as bigint), '{{ now }}')) ended
        {%- endset -%}
        {%- do cdcflow.record_cdc_states(relations, errors) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
