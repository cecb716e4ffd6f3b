{% macro default__partitioned_versioned_model(table_name) %}
    {#- Body of int_<table>__versioned on parquet (materialization
        cdcflow_partitioned_chain): the SELECT of the links a run writes.

        Layout (insert_overwrite, merge-on-read): partitioned by written_in_run.
        A run only adds partitions: its closed links in '<run>' ('YYYYMMDDTHHMMSS';
        the first build spreads the links it closes over 64 slices of the history,
        first_build_closing_partition) and, in 'open-<run>', its open links (a
        key's current version or the delete that ended it), one touch row per key
        it changed (key, first new change_order in valid_to_change_order, null
        change_order) and one run marker (null key; its loaded_at is the
        watermark). A run recomputes a key's links from its first new change on;
        the copies earlier runs wrote are superseded: a stored link is valid
        unless a later touch of its key starts at or before its end (or it was
        open). Readers drop superseded links with one anti-join on the touches
        (versioned_valid_links), which sit in the open partitions only.
        Every `cdcflow_compact_after_runs` runs, a run compacts: it rewrites the
        closed partitions holding superseded links without them, carries the
        valid open links into its own open partition, writes no touches, and its
        post-hook drops the older open partitions. A run with nothing newly
        logged writes nothing. What the run reads is decided from the stored
        chain by partitioned_chain_increment. A run that processes a range again
        (TFREDO, or ILUPDATE again) selects every link, as a first build, and
        the materialization builds them beside the table and swaps them in. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {{ config(
        materialized='cdcflow_partitioned_chain',
        incremental_strategy='insert_overwrite',
        partition_by=['written_in_run'],
        file_format='parquet',
        on_schema_change='fail',
        pre_hook=["{{ cdcflow.follow_configured_columns(this, '" ~ table_name ~ "', 'versioned') }}"],
        post_hook=["{{ cdcflow.drop_compacted_partitions(this) }}", "{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set key = cfg.key -%}
    {%- set event_columns = cdcflow.chain_event_columns(cfg) -%}
    {%- set columns = cdcflow.version_columns(cfg) -%}
    {%- set changes_log = ref(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- set open_partition = "concat('open-', " ~ cdcflow.run_partition() ~ ")" -%}
    {%- set incremental = cdcflow.is_incremental_run() -%}
    {%- set run = cdcflow.partitioned_chain_increment(this, changes_log, cfg) if incremental else {} -%}
    {%- if incremental and run.new_keys == 0 -%}
        {#- no key changed since the last write: the run leaves the table as it is -#}
        {{ return('select ' ~ columns | join(', ') ~ ' from ' ~ this ~ ' where false') }}
    {%- endif -%}
    {%- set compact = run.compact | default(false) -%}
    {%- set watermark = run.watermark -%}
    {%- set broadcast_keys = run.broadcast_keys -%}
    {%- set read_closed_links = run.read_closed_links -%}
    {%- set oldest_new_commit = run.oldest_new_commit %}

with

new_changes as (

    select {{ event_columns | join(', ') }}, loaded_at
    from {{ changes_log }}
    {%- if incremental %}
    where loaded_at > {{ watermark }}
    {%- endif %}

),
{%- if incremental %}

affected_keys as (

    {{ cdcflow.affected_keys(key) }}

),

stored_touches as (

    {%- if compact %}
    {{ cdcflow.versioned_touches(this, key) }}
    {%- else %}
    -- of the changed keys only
    select {{ '/*+ BROADCAST(affected_keys) */' if broadcast_keys }} touch.*
    from ({{ cdcflow.versioned_touches(this, key) }}) as touch
    left semi join affected_keys
        on {{ cdcflow.key_match('touch', 'affected_keys', key) }}
    {%- endif %}

),
{%- if compact %}

touches as (

    -- with this run's: what a compaction leaves superseded
    select * from stored_touches
    union all
    select {{ key | join(', ') }}, first_new_change_order, {{ cdcflow.run_loaded_at() }} as loaded_at
    from affected_keys

),
{%- endif %}

stored_links as (

    -- the changed keys' links in the open partitions; with late changes, also
    -- in the partitions closed since the day before the oldest new change (a
    -- link is closed by a later change, which cannot be processed before it was
    -- committed); compacting: every link
    {%- if compact %}
    select *
    from {{ this }}
    where change_order is not null
    {%- else %}
    select {{ '/*+ BROADCAST(affected_keys) */' if broadcast_keys }} link.*
    from {{ this }} as link
    left semi join affected_keys
        on {{ cdcflow.key_match('link', 'affected_keys', key) }}
    where
        link.change_order is not null
        and (
            link.written_in_run >= 'open'
            {%- if read_closed_links %}
            or link.written_in_run >= coalesce(
                date_format(date_sub(to_date({{ oldest_new_commit }}), 1), 'yyyyMMdd'), '0'
            )
            {%- endif %}
        )
        {%- if read_closed_links %}
        -- and of the closed links only those ending at or after the oldest new change
        -- (less var cdcflow_late_change_margin_minutes for clock skew between the
        -- change order and the commit times): the row groups of older history are
        -- skipped by their valid_to statistics
        and (
            link.valid_to is null
            or {{ oldest_new_commit }} is null
            or link.valid_to >= {{ oldest_new_commit }}
                - interval {{ var('cdcflow_late_change_margin_minutes', 60) | int }} minutes
        )
        {%- endif %}
    {%- endif %}

),

valid_links as (

    {{ cdcflow.versioned_valid_links('stored_links', 'stored_touches', key) }}

),

reopened_links as (

    {{ cdcflow.reopened_links('valid_links', key) }}

),
{%- endif %}

{{ cdcflow.chained_changes(cfg, event_columns, incremental) }},

links as (

    select
        {{ cdcflow.chain_link_columns(cfg) }},
        case
            when valid_to_change_order is null then {{ open_partition }}
            {%- if not incremental %}
            else coalesce({{ cdcflow.first_build_closing_partition(changes_log, 'valid_to') }}, {{ cdcflow.run_partition() }})
            {%- else %}
            else {{ cdcflow.run_partition() }}
            {%- endif %}
        end as written_in_run
    from chained

),

{%- if incremental %}

new_touches as (

    select
        {{ cdcflow.null_link_columns(cfg, true, 'first_new_change_order') }},
        {{ open_partition }} as written_in_run
    from affected_keys

),
{%- endif %}
{%- if compact %}

kept_links as (

    -- valid links this run does not recompute
    select link.*
    from valid_links as link
    left anti join reopened_links as reopened
        on {{ cdcflow.key_match('link', 'reopened', key) }}
        and link.change_order = reopened.change_order

),

superseded_partitions as (

    -- the closed partitions holding a link a later touch supersedes
    select distinct link.written_in_run
    from stored_links as link
    left semi join touches as touch
        on {{ cdcflow.key_match('link', 'touch', key) }}
        and link.loaded_at < touch.loaded_at
        and (
            link.valid_to_change_order is null
            or link.valid_to_change_order >= touch.first_new_change_order
        )
    where link.written_in_run < 'open'

),

rewritten_closed_links as (

    -- those partitions without their superseded links
    select *
    from kept_links
    where written_in_run in (select written_in_run from superseded_partitions)

),

carried_open_links as (

    -- the valid open links of earlier runs, into this run's open partition
    select * except (written_in_run), {{ open_partition }} as written_in_run
    from kept_links
    where written_in_run >= 'open'

),
{%- endif %}

markers as (

    -- the run marker (null key); when compacting, one in each rewritten closed
    -- partition too (an emptied partition must still be written to be replaced)
    select
        {{ cdcflow.null_link_columns(cfg, false, 'cast(null as string)') }},
        written_in_run
    from (
        select {{ open_partition }} as written_in_run
        {%- if compact %}
        union
        select written_in_run from superseded_partitions
        {%- endif %}
    ) as partitions

),

final as (

    select {{ columns | join(', ') }} from links
    union all
    select {{ columns | join(', ') }} from markers
    {%- if compact %}
    union all
    select {{ columns | join(', ') }} from rewritten_closed_links
    union all
    select {{ columns | join(', ') }} from carried_open_links
    {%- elif incremental %}
    union all
    select {{ columns | join(', ') }} from new_touches
    {%- endif %}

)

select * from final
{% endmacro %}
