{% macro record_cdc_states(relations, transitions) %}
    {#- Appends to the state log the states `transitions` computes: a query of
        (name, step, <the columns of cdcflow_cdc_state_begin_run/end_run>), one row
        per state to record. A transition the state machine refuses stops the run
        with its reason; nothing is recorded then. Returns the recorded rows. -#}
    {%- set rows = run_query(transitions) -%}
    {%- for row in rows if row['transition_error'] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: CDC group '" ~ row['name'] ~ "': " ~ row['transition_error']
            ~ ". See the state table " ~ relations.table ~ " and docs/operations.md, 'Processing ranges and the CDC state'."
        ) }}
    {%- endfor -%}
    {%- if rows | length == 0 -%}
        {{ return(rows) }}
    {%- endif -%}
    {%- set literal_rows = [] -%}
    {%- for row in rows -%}
        {%- set literals = [cdcflow.sql_string(row['name']), loop.index | string] -%}
        {%- for column in ['state', 'state_name', 'current_start_lsn', 'current_end_lsn', 'initial_start_lsn',
                           'initial_end_lsn', 'updated_at', 'error_text'] -%}
            {%- do literals.append(cdcflow.sql_string(row[column])) -%}
        {%- endfor -%}
        {%- do literals.append('true' if row['reprocessing'] else 'false') -%}
        {%- do literal_rows.append(literals) -%}
    {%- endfor -%}
    {#- one file per insert (the rows are few): every run's hooks read the whole log, and
        a file per core doubled what they open (the samples' log: 145 files after 36 runs) -#}
    {%- call statement('cdcflow_record_states') -%}
        insert into {{ relations.log }}
        select /*+ COALESCE(1) */
            name,
            state,
            state_name,
            current_start_lsn,
            current_end_lsn,
            initial_start_lsn,
            initial_end_lsn,
            cast(updated_at as timestamp) as updated_at,
            error_text,
            reprocessing,
            timestamp_micros(cast(conv(substr(current_start_lsn, 3), 16, 10) as bigint)) as current_start_at,
            timestamp_micros(cast(conv(substr(current_end_lsn, 3), 16, 10) as bigint)) as current_end_at,
            (select coalesce(max(state_seq), 0) from {{ relations.log }}) + step as state_seq,
            '{{ invocation_id }}' as invocation_id
        from {{ cdcflow.values_table(literal_rows, 'recorded', [
            'name', 'step', 'state', 'state_name', 'current_start_lsn', 'current_end_lsn', 'initial_start_lsn',
            'initial_end_lsn', 'updated_at', 'error_text', 'reprocessing']) }}
    {%- endcall -%}
    {{ return(rows) }}
{% endmacro %}
