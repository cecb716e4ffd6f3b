{% macro check_required_models(groups) %}
    {#- Stops the run before it takes a range when it selects a group's change log
        without a model the change log reads from this run only (its format
        entry's required_models, e.g. the messages Qlik Kafka parses once per run;
        `{table}` stands for the group's table; one the project does not have,
        e.g. the full-load staging of a table without a full load, is not
        required): the change log would read an earlier run's rows. -#}
    {%- for table_name in groups -%}
        {%- set required = cdcflow.source_format(cdcflow.table_config(table_name).format).required_models -%}
        {%- for pattern in required -%}
            {%- set name = pattern | replace('{table}', table_name) -%}
            {%- set exists = [] -%}
            {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == name -%}
                {%- do exists.append(node.unique_id) -%}
            {%- endfor -%}
            {%- set found = [] if exists else [name] -%}
            {%- for unique_id in selected_resources if unique_id.startswith('model.') and unique_id.endswith('.' ~ name) -%}
                {%- do found.append(unique_id) -%}
            {%- endfor -%}
            {%- if not found -%}
                {{ exceptions.raise_compiler_error(
                    "cdcflow: this run selects int_" ~ table_name ~ "__changes_logged but not " ~ name
                    ~ ", which it reads from this run; select it too, e.g. --select +int_" ~ table_name
                    ~ "__changes_logged or source:" ~ cdcflow.table_config(table_name).source ~ "+"
                ) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}
