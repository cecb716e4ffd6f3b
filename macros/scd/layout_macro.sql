{% macro layout_macro(macro_name) %}
    {#- The one point where the table format chooses code: the macro
        `<layout>_<macro_name>` of the chain layout (chain_layout: merged on
        Delta Lake and Iceberg, partitioned on parquet), found by
        adapter.dispatch in namespace cdcflow. A project overrides one as it
        would any package's macro: a `spark__merged_versioned_model` of its own
        and `dispatch: [{macro_namespace: cdcflow, search_order: [<project>,
        cdcflow]}]` in its dbt_project.yml. (dbt reads a dispatched macro's
        name statically: each is spelled out.) -#}
    {%- set by_layout = {
        'merged': {
            'versioned_model': adapter.dispatch('merged_versioned_model', 'cdcflow'),
            'current_model': adapter.dispatch('merged_current_model', 'cdcflow'),
            'valid_versions': adapter.dispatch('merged_valid_versions', 'cdcflow'),
            'chain_columns': adapter.dispatch('merged_chain_columns', 'cdcflow'),
        },
        'partitioned': {
            'versioned_model': adapter.dispatch('partitioned_versioned_model', 'cdcflow'),
            'current_model': adapter.dispatch('partitioned_current_model', 'cdcflow'),
            'valid_versions': adapter.dispatch('partitioned_valid_versions', 'cdcflow'),
            'chain_columns': adapter.dispatch('partitioned_chain_columns', 'cdcflow'),
        },
    } -%}
    {{ return(by_layout[cdcflow.chain_layout()][macro_name]) }}
{% endmacro %}
