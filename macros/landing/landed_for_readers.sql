{% macro landed_for_readers(table_name, readers) -%}
    {#- Filter for a model written once per run for `readers` (the models that
        read it within the group's range: its change log, a quarantine...): the
        rows landed within the group's processing range, from the beginning
        when one of the readers is built from scratch (any_built_from_scratch),
        as the readers' own filters then read. -#}
    {{ cdcflow.landed_in_range(cdcflow.processing_range(table_name), cdcflow.any_built_from_scratch(readers)) }}
{%- endmacro %}
