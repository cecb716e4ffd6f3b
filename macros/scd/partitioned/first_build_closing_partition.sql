{% macro first_build_closing_partition(changes_log, valid_to) %}
    {#- written_in_run of a link closed by the first build (which closes the whole
        history at once): the start of the slice of history its closing change
        falls in ('YYYYMMDDTHHMMSS', as a run's), the change log's commit times cut
        into 64 equal slices of at most a day (a late change reads the partitions
        from the day before its commit time on: a slice must not start earlier
        than that for a link it re-opens); null when the log has no commit times. -#}
    {#- scalar subqueries, computed once per build: a literal read when the model
        compiles would fail `dbt compile` before the change log exists -#}
    {%- set first = "(select unix_seconds(min(committed_at)) from " ~ changes_log ~ ")" -%}
    {%- set width = "(select least(86400, greatest(1, ceil((unix_seconds(max(committed_at))"
        ~ " - unix_seconds(min(committed_at)) + 1) / 64))) from " ~ changes_log ~ ")" -%}
    date_format(
        timestamp_seconds({{ first }} + floor((unix_seconds({{ valid_to }}) - {{ first }}) / {{ width }}) * {{ width }}),
        "yyyyMMdd'T'HHmmss"
    )
{%- endmacro %}
