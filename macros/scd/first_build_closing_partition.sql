{% macro first_build_closing_partition(changes_log, valid_to) %}
    {#- closed_in_run of a link closed by the first build (which closes the whole
        history at once): the start of the slice of history its closing change
        falls in ('YYYYMMDDTHHMMSS', as a run's), the change log's commit times cut
        into 64 equal slices. A late change then re-writes the slices from its time
        on, not the whole history; null when the log has no commit times. -#}
    {#- scalar subqueries, computed once per build: a literal read when the model
        compiles would fail `dbt compile` before the change log exists -#}
    {%- set first = "(select unix_seconds(min(committed_at)) from " ~ changes_log ~ ")" -%}
    {%- set width = "(select greatest(1, ceil((unix_seconds(max(committed_at))"
        ~ " - unix_seconds(min(committed_at)) + 1) / 64)) from " ~ changes_log ~ ")" -%}
    date_format(
        timestamp_seconds({{ first }} + floor((unix_seconds({{ valid_to }}) - {{ first }}) / {{ width }}) * {{ width }}),
        "yyyyMMdd'T'HHmmss"
    )
{%- endmacro %}
