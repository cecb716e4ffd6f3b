{% macro with_raw_row_for_quarantine(relation) -%}
    {#- The final select of a model written once per run that a quarantine reads
        beside its change log: every column of `relation`, the landed row
        (`raw_row`) kept only on the invalid rows (an `invalid_reason`), which
        are the ones a quarantine lists from it; null on the others. -#}
    select
        * except (raw_row, landed_at),
        case when invalid_reason is not null then raw_row end as raw_row,
        landed_at
    from {{ relation }}
{%- endmacro %}
