{% macro landing_overlap_bound(edge, listed_at) %}
    {#- SQL: the landing time after which raw rows may still be unread at a range
        edge `edge` (a CS or CE), given `listed_at`, when the run that took the
        range ending at that edge listed the raw tables (the first TFSTART or
        TFREDO (or ILUPDATE) recorded for it; null when unknown). A row becomes visible within
        cdcflow_landing_overlap_minutes of its landing time, so every row landed
        up to `listed_at` less the overlap was visible then and has been read:
        the bound is the earlier of `edge` and `listed_at` less the overlap, and
        never earlier than `edge` less the overlap (the bound when `listed_at` is
        unknown). A run listing long after the last landing re-reads nothing; one
        listing just after it re-reads up to the overlap, as before. -#}
    {%- set overlap = 'interval ' ~ (var('cdcflow_landing_overlap_minutes', 10) | int) ~ ' minutes' -%}
    {{- return('greatest(' ~ edge ~ ' - ' ~ overlap ~ ', least(' ~ edge ~ ', coalesce(' ~ listed_at ~ ' - '
        ~ overlap ~ ', ' ~ edge ~ ' - ' ~ overlap ~ ')))') -}}
{% endmacro %}
