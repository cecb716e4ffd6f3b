{% macro latest_cdc_states(relations, with_last_ends=false) %}
    {#- name -> latest state row (state, state_name, current_start_at, ...) of every
        group in the state table; `with_last_ends`: each row also has
        last_end_lsn, the end of the last range the group took (its latest
        non-null current_end_lsn), and log_files, the files of the state log
        (compact_cdc_state_table), read in the same statement. -#}
    {%- set query -%}
        {%- if with_last_ends -%}
            select latest.*, ended.last_end_lsn, files.log_files
            from {{ relations.table }} as latest
            left join (
                select name, max_by(current_end_lsn, state_seq) as last_end_lsn
                from {{ relations.log }}
                where current_end_lsn is not null
                group by name
            ) as ended
                on latest.name = ended.name
            cross join (
                select count(distinct _metadata.file_path) as log_files
                from {{ relations.log }}
            ) as files
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
