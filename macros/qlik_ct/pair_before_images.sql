{% macro pair_before_images(relation, key_columns, quarantined_before_images=none) %}
    {#- The BEFOREIMAGE/UPDATE self-join on change_seq (reference 001: a before
        image carries its UPDATE's change_seq). Returns the non-B rows of
        `relation`, each U with its before image's key as before_<key> and
        `is_key_change` when that key differs (a primary-key update).
        `quarantined_before_images`: a relation of (change_seq, <key>) of the
        before images an earlier run quarantined as orphans
        (qlik_ct_quarantined_before_images), for UPDATEs that landed later than
        the overlap lets a before image wait. -#}
    {%- if not key_columns or key_columns is string -%}
        {{ exceptions.raise_compiler_error("cdcflow.pair_before_images: key_columns must be a non-empty list.") }}
    {%- endif -%}
    select
        change_row.*,
        {%- for column in key_columns %}
        before_image.{{ column }} as before_{{ column }},
        {%- endfor %}
        coalesce(
            before_image.change_seq is not null
            and not ({{ cdcflow.key_match('change_row', 'before_image', key_columns) }}),
            false
        ) as is_key_change
    from {{ relation }} as change_row
    left outer join (
        select distinct change_seq, {{ key_columns | join(', ') }}
        from (
            select change_seq, {{ key_columns | join(', ') }}
            from {{ relation }}
            where change_oper = 'B'
            {%- if quarantined_before_images %}

            union all

            select change_seq, {{ key_columns | join(', ') }}
            from {{ quarantined_before_images }}
            {%- endif %}
        ) as before_images
    ) as before_image
        on change_row.change_oper = 'U' and change_row.change_seq = before_image.change_seq
    where change_row.change_oper <> 'B'
{%- endmacro %}
