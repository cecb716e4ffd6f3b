{% macro has_nothing_new() %}
    {#- Whether the model being run has nothing new to process in this `dbt run` /
        `build`: its relation exists, this is no full refresh, and every CDC group
        it serves (config.meta: cdcflow_table, or every table of cdcflow_format)
        took a range with nothing new at the start of this run
        (record_groups_with_nothing_new). Its model macro then renders no query
        and its materialization does no Spark work (cdcflow_incremental,
        cdcflow_table, cdcflow_view). False whenever unknown (parse time, unit
        tests, other commands, a setting of another run). -#}
    {%- if not execute or model is not defined or model.resource_type != 'model'
        or invocation_args_dict.get('which') not in ['run', 'build', 'retry'] or should_full_refresh() -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(load_relation(this) is not none and cdcflow.serve_groups_with_nothing_new([model])) }}
{% endmacro %}
