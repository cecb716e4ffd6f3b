{% macro orphan_before_image_raw_rows(cfg, changes, landed_filter='true') %}
    {#- The orphan before images of `changes` (staged valid rows; see
        orphan_before_images) with their landed rows, read back from the
        change table as JSON: change_seq, raw_row, landed_at.
        Staging keeps no raw row for before images, half of a change table's
        rows, because only an orphan, which is rare, is ever quarantined. The
        orphans are broadcast and semi-joined before the raw row is built, so
        only they are turned into JSON; with no orphan, Spark's adaptive
        execution drops the join and does not scan the change table.
        `landed_filter`: the filter on landed_at that selected `changes` (an
        orphan landed where its staged row did): the change table's files
        landed outside it are not read, whatever its size. -#}
    {%- set prefix = var('cdcflow_qlik_header_prefix', 'header__') -%}
    select /*+ broadcast(orphan) */
        landed.change_seq,
        landed.raw_row,
        landed.landed_at
    from (
        select
            {{ prefix }}change_seq as change_seq,
            {{ prefix }}change_oper as change_oper,
            _cdcflow_raw_row as raw_row,
            _cdcflow_landed_at as landed_at
        from ({{ cdcflow.landed_raw_rows(source(cfg.source, cfg.change_table)) }}) as raw_rows
    ) as landed
    left semi join ({{ cdcflow.orphan_before_images(changes) }}) as orphan
        on landed.change_seq = orphan.change_seq
        and landed.landed_at <=> orphan.landed_at
    where landed.change_oper = 'B' and {{ landed_filter }}
{%- endmacro %}
