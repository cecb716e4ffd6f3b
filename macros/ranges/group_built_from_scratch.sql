{% macro group_built_from_scratch(table_name) %}
    {#- Whether this run builds a model of CDC group `table_name` from scratch:
        a --full-refresh, or one of the group's stored models (cdc_group_models,
        not its ephemeral ones) did not exist when the run started, as
        on-run-start noted it (record_groups_built_from_scratch: what the run
        creates meanwhile changes nothing); outside a run (dbt compile, show), or
        for a group the run did not note, whether one does not exist now. A model
        written once per run for the group's readers (its staging, a format's
        parsed landings) then holds every landed row: the readers' own filters
        read from the beginning when they are built from scratch, and read within
        the range otherwise. -#}
    {%- if not execute or flags.FULL_REFRESH -%}
        {{ return(true) }}
    {%- endif -%}
    {%- set noted = graph.get('cdcflow_built_from_scratch') -%}
    {%- if noted and noted.invocation_id == invocation_id and table_name in noted.checked -%}
        {{ return(table_name in noted.groups) }}
    {%- endif -%}
    {%- set models = cdcflow.cdc_group_models(table_name) -%}
    {%- for node in graph.nodes.values()
        if node.resource_type == 'model' and node.name in models and node.config.materialized != 'ephemeral' -%}
        {%- if adapter.get_relation(node.database, node.schema, node.alias) is none -%}
            {{ return(true) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(false) }}
{% endmacro %}
