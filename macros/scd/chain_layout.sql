{% macro chain_layout() %}
    {#- How the table format keeps a version chain (table_format): `merged` on
        Delta Lake and Iceberg (one copy of each link, a run MERGEs what it
        recomputed in one atomic commit; <table>_current a table merged into),
        `partitioned` on plain parquet (merge-on-read: partitions a run adds,
        touches readers anti-join, compaction, a redo rebuilt beside and
        swapped in; <table>_current a view). layout_macro picks the layout's
        macros. -#}
    {{ return('partitioned' if cdcflow.table_format() == 'parquet' else 'merged') }}
{% endmacro %}
