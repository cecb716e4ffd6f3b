{% macro chain_rebuilt_in_this_run() %}
    {#- Whether the parquet chain being run is rebuilt beside its table and
        swapped in (materialization cdcflow_partitioned_chain): its table
        exists, this is no full refresh, and the run processes its group's
        range again (versions_rebuilt_in_this_run of config.meta.cdcflow_table). -#}
    {%- set relation = load_relation(this) -%}
    {{ return(relation is not none and relation.type == 'table' and not should_full_refresh()
        and cdcflow.versions_rebuilt_in_this_run(model.config.meta.get('cdcflow_table'))) }}
{% endmacro %}
