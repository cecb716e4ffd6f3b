{% macro landed_for_readers(table_name) -%}
    {#- Filter for a model written once per run for the readers of CDC group
        `table_name` (its change log, its format's quarantine and outcomes, which
        read it within the group's range): the rows landed within the group's
        processing range, from the beginning when the run builds a model of the
        group from scratch (group_built_from_scratch), as the readers' own filters
        then read. -#}
    {{ cdcflow.landed_in_range(cdcflow.processing_range(table_name), cdcflow.group_built_from_scratch(table_name)) }}
{%- endmacro %}
