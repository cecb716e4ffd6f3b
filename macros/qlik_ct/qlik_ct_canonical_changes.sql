{% macro qlik_ct_canonical_changes(relation, cfg, quarantined_before_images=none) %}
    {#- The canonical changes of `relation` (staged valid rows of a `__ct` table,
        before images included): each U paired with its before image
        (pair_before_images; also with one an earlier run quarantined, from
        `quarantined_before_images`), a primary-key update split in two
        (split_key_changes), base_order the change_seq. -#}
    {{ cdcflow.split_key_changes(
        '(select *, change_oper as operation, change_seq as base_order, '
        ~ cdcflow.string_array(cfg.column_names) ~ ' as present_columns from ('
        ~ cdcflow.pair_before_images(relation, cfg.key, quarantined_before_images) ~ ') as paired) as cdc_changes',
        cfg
    ) }}
{%- endmacro %}
