{% macro check_required_models(groups) %}
    {#- Stops the run before it takes a range when it selects a group's change log
        without a model the change log reads from this run only
        (group_required_models, e.g. the messages Qlik Kafka parses once per run):
        the change log would read an earlier run's rows. -#}
    {%- for table_name in groups -%}
        {%- for name in cdcflow.group_required_models(table_name) -%}
            {%- set found = [] -%}
            {%- for unique_id in selected_resources if unique_id.startswith('model.') and unique_id.endswith('.' ~ name) -%}
                {%- do found.append(unique_id) -%}
            {%- endfor -%}
            {%- if not found -%}
                {%- set change_log = cdcflow.table_model_name(table_name, 'changes_logged') -%}
                {{ exceptions.raise_compiler_error(
                    "cdcflow: this run selects " ~ change_log ~ " but not " ~ name
                    ~ ", which it reads from this run; select it too, e.g. --select +" ~ change_log
                    ~ " or source:" ~ cdcflow.table_config(table_name).source ~ "+"
                ) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}
