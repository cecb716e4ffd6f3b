{% macro is_incremental_run() %}
    {#- dbt's is_incremental() for cdcflow's incremental models, whose
        materialization is cdcflow_incremental, cdcflow_versioned or
        cdcflow_partitioned_chain (dbt's own answers false for any
        materialization but `incremental`): the model's table exists (for
        cdcflow_versioned, a table of its table format: stored_in_table_format)
        and this is no full refresh; for cdcflow_partitioned_chain, neither a
        rebuild of the chain (chain_rebuilt_in_this_run: the query selects every
        link). In dbt unit tests, dbt's is_incremental() (the test's
        override). -#}
    {%- if not execute or model is not defined or model.resource_type == 'unit_test'
        or model.config.materialized not in ['cdcflow_incremental', 'cdcflow_versioned', 'cdcflow_partitioned_chain'] -%}
        {{ return(is_incremental()) }}
    {%- endif -%}
    {%- set relation = load_relation(this) -%}
    {%- if model.config.materialized == 'cdcflow_versioned' -%}
        {{ return(cdcflow.stored_in_table_format(relation) and not should_full_refresh()) }}
    {%- endif -%}
    {%- if model.config.materialized == 'cdcflow_partitioned_chain' and cdcflow.chain_rebuilt_in_this_run() -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(relation is not none and relation.type == 'table' and not should_full_refresh()) }}
{% endmacro %}
