{% macro latest_cdc_states(relations) %}
    {#- name -> latest state row (state, state_name, current_start_at, ...) of every
        group in the state table. -#}
    {%- set states = {} -%}
    {%- for row in run_query('select * from ' ~ relations.table) -%}
        {%- do states.update({row['name']: row}) -%}
    {%- endfor -%}
    {{ return(states) }}
{% endmacro %}
