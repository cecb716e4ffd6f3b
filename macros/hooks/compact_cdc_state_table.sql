{% macro compact_cdc_state_table(relation) %}
    {#- Rewrites an append-only state table (the state log, the run summaries) into
        one file: every run appends a file to each, and every run's hooks read the
        whole log (a log of 90 files read in 1.1 s warm, its one-file copy in
        0.6 s). Built beside it, then swapped in by renames; what a kill at any
        step leaves, the next run's restore_cdc_state_table puts right, never
        losing a row:
        1. <name>__compacted created like the table, the rows copied into it
           (killed: the table is untouched, the copy is dropped);
        2. the table renamed <name>__replaced (killed after it: the copy, complete,
           is renamed back to the table's name);
        3. the copy renamed to the table's name, 4. the replaced one dropped
           (killed before: the replaced one is dropped).
        Called by the run that holds the claim (one run at a time), after
        create_cdc_state_relations has put right what an earlier kill left. -#}
    {%- set compacted = relation.incorporate(path={'identifier': relation.identifier ~ '__compacted'}) -%}
    {%- set replaced = relation.incorporate(path={'identifier': relation.identifier ~ '__replaced'}) -%}
    {%- do run_query('create table ' ~ compacted ~ ' like ' ~ relation) -%}
    {%- do adapter.cache_added(compacted) -%}
    {%- do run_query('insert into ' ~ compacted ~ ' select /*+ COALESCE(1) */ * from ' ~ relation) -%}
    {%- do adapter.rename_relation(relation, replaced) -%}
    {%- do adapter.rename_relation(compacted, relation) -%}
    {%- do adapter.drop_relation(replaced) -%}
{% endmacro %}
