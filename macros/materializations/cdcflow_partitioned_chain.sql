{% materialization cdcflow_partitioned_chain, adapter='spark' %}
    {#- A version chain on parquet (partitioned_versioned_model): dbt-spark's
        incremental materialization (insert_overwrite of the partitions the run
        writes), except that it writes nothing when the model's groups have
        nothing new (has_nothing_new), and that a run processing its range
        again (TFREDO, or ILUPDATE after a run that did not end:
        versions_rebuilt_in_this_run) builds the model's query, then every
        link (is_incremental_run is false), beside the table and swaps it in
        (swap_in_rebuilt): a kill during a partition overwrite may have lost
        links, and the marts read the old chain until the new one is
        complete. -#}
    {%- if cdcflow.has_nothing_new() -%}
        {{ run_hooks(pre_hooks) }}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {%- if cdcflow.chain_rebuilt_in_this_run() -%}
        {{ run_hooks(pre_hooks) }}
        {%- do cdcflow.swap_in_rebuilt(this, sql) -%}
        {{ run_hooks(post_hooks) }}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {{ return(dbt.materialization_incremental_spark()) }}
{% endmaterialization %}
