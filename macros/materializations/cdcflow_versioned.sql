{% materialization cdcflow_versioned, adapter='spark' %}
    {#- A version chain on Delta Lake or Iceberg (merged_versioned_model): a
        first build, a --full-refresh or a table of another format is built by
        dbt-spark's table materialization (CREATE OR REPLACE TABLE ... AS, one
        commit); a later run MERGEs the links its query recomputed into the table
        on the model's unique_key (key and change_order), updating the stored
        copy of each and inserting the new ones, in one atomic commit: a reader,
        or a run killed midway, sees the chain before or after the run, never
        half of it; a chain of var cdcflow_deletion_vectors_from_mb MB or more
        has deletion vectors turned on first (deletion_vectors_when_large).
        Writes nothing when the model's groups have nothing new
        (has_nothing_new). -#}
    {%- if cdcflow.has_nothing_new() -%}
        {{ run_hooks(pre_hooks) }}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {%- set existing = load_relation(this) -%}
    {%- if should_full_refresh() or not cdcflow.stored_in_table_format(existing) -%}
        {{ return(dbt.materialization_table_spark()) }}
    {%- endif -%}
    {{ run_hooks(pre_hooks) }}
    {%- do cdcflow.deletion_vectors_when_large(this) -%}
    {%- set recomputed = make_temp_relation(this, '__cdcflow_recomputed') -%}
    {%- call statement('cdcflow_recomputed_links') -%}
        {{ create_temporary_view(recomputed, sql) }}
    {%- endcall -%}
    {#- what the model's query found to read (merged_chain_increment) -#}
    {%- set run = cdcflow.run_memo().get('merged_chain_increment ' ~ this, {}) -%}
    {%- call statement('main') -%}
        {{ cdcflow.merge_links(this, recomputed, config.get('unique_key'), broadcast=run.get('broadcast_links', false)) }}
    {%- endcall -%}
    {%- call statement('cdcflow_drop_recomputed_links') -%}
        drop view if exists {{ recomputed }}
    {%- endcall -%}
    {{ run_hooks(post_hooks) }}
    {{ return({'relations': [this]}) }}
{% endmaterialization %}
