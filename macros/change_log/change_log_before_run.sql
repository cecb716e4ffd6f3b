{% macro change_log_before_run(table_name) %}
    {#- The change log of `table_name` as earlier runs left it, for a model
        that reads it without `ref` (a quarantine, which must run when a change
        log fails): none when this run builds it from scratch. Read it with
        `loaded_at < run_loaded_at()`. -#}
    {%- set name = cdcflow.table_model_name(table_name, 'changes_logged') -%}
    {{ return(none if cdcflow.any_built_from_scratch([name]) else cdcflow.model_relation(name)) }}
{% endmacro %}
