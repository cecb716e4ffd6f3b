{% macro drop_compacted_partitions(relation) %}
    {#- Post-hook of int_<table>__versioned: after a run that compacted (it wrote
        its open partition and found at least var cdcflow_compact_after_runs older
        ones, whose valid links it carried over), drop those older open
        partitions. A kill before this point leaves both: the run did not end, so
        the next one repairs the group (cdc_group_repair rebuilds the table). -#}
    {%- set partitions = cdcflow.versioned_open_partitions(relation) -%}
    {%- set this_run = 'open-' ~ cdcflow.run_partition()[1:-1] -%}
    {%- set older = partitions | reject('equalto', this_run) | list -%}
    {%- if this_run in partitions and older | length >= var('cdcflow_compact_after_runs', 16) | int -%}
        alter table {{ relation }} drop if exists
        {%- for value in older %} partition (written_in_run = '{{ value }}'){{ ',' if not loop.last }}{% endfor %}
    {%- endif -%}
{% endmacro %}
