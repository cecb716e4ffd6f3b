{% macro merged_chain_increment(relation, changes_log) %}
    {#- What an incremental run of a chain on Delta Lake or Iceberg (`relation`)
        reads, decided from what is stored, as a dict for merged_versioned_model:
        `watermark`, the chain's newest loaded_at (its last write), a SQL literal;
        `new_changes`, how many changes the change log logged since (none when
        unknown: at parse time and in unit tests); `broadcast_keys`, whether
        they are few enough (var cdcflow_broadcast_keys) to send their keys to
        every task, so the stored links are read where they lie, never
        shuffled; `broadcast_links`, whether they are few enough (var
        cdcflow_broadcast_links) for the MERGE to send the links the run
        recomputes to every task (merge_links), so the chain is not shuffled
        to find the links they replace either. Kept in the run's memo, where
        materialization cdcflow_versioned reads it. -#}
    {%- set watermark = cdcflow.incremental_value(
        "select coalesce(max(loaded_at), timestamp'1900-01-01 00:00:00') from " ~ relation, 'timestamp'
    ) -%}
    {%- set new_changes = cdcflow.incremental_count(
        "select count(*) from " ~ changes_log ~ " where loaded_at > " ~ watermark
    ) -%}
    {%- set known = new_changes is not none -%}
    {%- set run = {
        'watermark': watermark,
        'new_changes': new_changes,
        'broadcast_keys': known and new_changes <= var('cdcflow_broadcast_keys', 2000000) | int,
        'broadcast_links': known and new_changes <= var('cdcflow_broadcast_links', 250000) | int
    } -%}
    {%- do cdcflow.run_memo().update({'merged_chain_increment ' ~ relation: run}) -%}
    {{ return(run) }}
{% endmacro %}
