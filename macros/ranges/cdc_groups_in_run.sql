{% macro cdc_groups_in_run() %}
    {#- The CDC groups (configured tables) that take a processing range in this
        invocation: those whose change log (int_<table>__changes_logged) is
        selected by a `dbt run`, `build` or `retry`. Other commands (compile,
        test, seed, docs, show) and unselected tables leave their state alone. -#}
    {%- if invocation_args_dict.get('which') not in ['run', 'build', 'retry'] -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for table_name in var('cdcflow_tables', {}) | sort -%}
        {%- if 'model.' ~ project_name ~ '.' ~ cdcflow.table_model_name(table_name, 'changes_logged') in selected_resources -%}
            {%- do groups.append(table_name) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(groups) }}
{% endmacro %}
