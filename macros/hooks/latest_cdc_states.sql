{% macro latest_cdc_states(relations, with_last_ends=false) %}
    {#- name -> latest state row (state, state_name, current_start_at, ...) of every
        group in the state table; `with_last_ends`: each row also has
        last_end_lsn, the end of the last range the group took (its latest
        non-null current_end_lsn), and log_files, the files of the state log
        (compact_cdc_state_table), read in the same statement from the log
        (latest_cdc_state_records). -#}
    {%- set query -%}
        {%- if with_last_ends -%}
            {{ cdcflow.latest_cdc_state_records(relations.log, with_last_ends=true) }}
        {%- else -%}
            select * from {{ relations.table }}
        {%- endif -%}
    {%- endset -%}
    {%- set states = {} -%}
    {%- for row in run_query(query) -%}
        {%- do states.update({row['name']: row}) -%}
    {%- endfor -%}
    {{ return(states) }}
{% endmacro %}
