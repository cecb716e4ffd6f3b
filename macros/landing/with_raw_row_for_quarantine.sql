{% macro with_raw_row_for_quarantine(relation, kept_when='invalid_reason is not null') -%}
    {#- The final select of a model written once per run that a quarantine reads
        beside its change log: every column of `relation`, the landed row
        (`raw_row`) kept only on the rows a quarantine may list (`kept_when`),
        null on the others, which nothing reads it from. -#}
    select
        * except (raw_row, landed_at),
        case when {{ kept_when }} then raw_row end as raw_row,
        landed_at
    from {{ relation }}
{%- endmacro %}
