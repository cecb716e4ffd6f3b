{% macro cdc_state_relations() %}
    {#- The CDC state table (var cdcflow_state_table, default cdc_states): a view
        with one row per CDC group, its latest state; and `<name>_log`, the
        append-only table of every state recorded (a parquet append is atomic
        where an overwrite is not); `<name>_runs`, one row per group and run
        saying what the run did (record_run_summaries); `<name>_claim`, a view
        naming the run that holds the groups while it runs (claim_cdc_run).
        All in the target schema. -#}
    {%- set name = var('cdcflow_state_table', 'cdc_states') -%}
    {{ return({
        'table': api.Relation.create(schema=target.schema, identifier=name, type='view'),
        'log': api.Relation.create(schema=target.schema, identifier=name ~ '_log', type='table'),
        'runs': api.Relation.create(schema=target.schema, identifier=name ~ '_runs', type='table'),
        'claim': api.Relation.create(schema=target.schema, identifier=name ~ '_claim', type='view'),
    }) }}
{% endmacro %}
