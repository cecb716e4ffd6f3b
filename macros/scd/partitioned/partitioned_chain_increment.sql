{% macro partitioned_chain_increment(relation, changes_log, cfg) %}
    {#- What an incremental run of a parquet chain (`relation`) reads, decided
        from what is stored, as a dict for partitioned_versioned_model:
        `watermark`, the last run that wrote the chain (the newest row of its
        open partitions), a SQL literal; `new_keys`, how many keys the change
        log changed since (0: the run writes nothing; none when unknown, at
        parse time and in unit tests); `broadcast_keys`, whether they are few
        enough (var cdcflow_broadcast_keys) to send to every task, so the
        stored links and touches are narrowed to them by a broadcast
        semi-join, never shuffled; `compact`, whether this run compacts (var
        cdcflow_compact_after_runs open partitions or more);
        `read_closed_links`, whether a new change is older than its key's
        newest stored link (a late change, or in a format that
        relogs_changes, that change logged again), so closed links must be
        read; and then `oldest_new_commit`, the oldest new change's commit
        time (null when one has none), a SQL literal. -#}
    {%- set key = cfg.key -%}
    {%- set watermark = cdcflow.incremental_value(
        "select coalesce(max(loaded_at), timestamp'1900-01-01 00:00:00') from " ~ relation
        ~ " where written_in_run >= 'open'", 'timestamp'
    ) -%}
    {%- set new_keys = cdcflow.incremental_count(
        "select count(*) from (select distinct " ~ key | join(', ') ~ " from " ~ changes_log
        ~ " where loaded_at > " ~ watermark ~ ") as new_key"
    ) -%}
    {%- set run = {'watermark': watermark, 'new_keys': new_keys} -%}
    {%- if new_keys == 0 -%}{{ return(run) }}{%- endif -%}
    {%- do run.update({
        'broadcast_keys': new_keys is not none and new_keys <= var('cdcflow_broadcast_keys', 2000000) | int,
        'compact': cdcflow.versioned_open_partitions(relation) | length >= var('cdcflow_compact_after_runs', 16) | int
    }) -%}
    {%- set late_changes = cdcflow.incremental_count(
        "select count(*) from (select " ~ key | join(', ') ~ ", min(change_order) as first_new"
        ~ " from " ~ changes_log ~ " where loaded_at > " ~ watermark
        ~ " group by " ~ key | join(', ') ~ ") as new_change"
        ~ " inner join " ~ relation ~ " as link on " ~ cdcflow.key_match('new_change', 'link', key)
        ~ " where link.written_in_run >= 'open' and link.change_order is not null"
        ~ " and new_change.first_new " ~ ('<=' if cfg.relogs_changes else '<') ~ " link.change_order"
    ) -%}
    {%- do run.update({'read_closed_links': late_changes != 0}) -%}
    {%- if late_changes != 0 -%}
        {%- do run.update({'oldest_new_commit': cdcflow.incremental_value(
            "select case when count_if(committed_at is null) = 0 then min(committed_at) end"
            ~ " from " ~ changes_log ~ " where loaded_at > " ~ watermark, 'timestamp'
        )}) -%}
    {%- endif -%}
    {{ return(run) }}
{% endmacro %}
