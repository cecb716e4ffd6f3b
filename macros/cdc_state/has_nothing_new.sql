{% macro has_nothing_new() %}
    {#- Whether the model being run has nothing new to process in this `dbt run` /
        `build`: its relation exists, this is no full refresh, and every CDC group
        it serves (config.meta: cdcflow_table, or every table of cdcflow_format)
        took an empty range at the start of this run (record_groups_with_nothing_new).
        Its model macro then renders no query and its materialization does no
        Spark work (cdcflow_incremental, cdcflow_view). False whenever unknown
        (parse time, unit tests, other commands, a setting of another run). -#}
    {%- if not execute or model is not defined or model.resource_type != 'model'
        or invocation_args_dict.get('which') not in ['run', 'build', 'retry'] or should_full_refresh() -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set meta = model.config.meta or {} -%}
    {%- set groups = [meta.cdcflow_table] if meta.get('cdcflow_table')
        else cdcflow.tables_of_format(meta.cdcflow_format) if meta.get('cdcflow_format') else [] -%}
    {%- if not groups or load_relation(this) is none -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set idle = cdcflow.groups_with_nothing_new() -%}
    {%- for group in groups if group not in idle -%}
        {{ return(false) }}
    {%- endfor -%}
    {{ return(true) }}
{% endmacro %}
