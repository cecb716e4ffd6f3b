-- The native Spark SQL and the Python UDF change-mask decoders agree on every
-- row of every configured qlik_ct change table (decoded columns, and whether
-- the mask fits the table). Returns the rows where they differ.

with

disagreements as (
    {%- for table_name in cdcflow.tables_of_format('qlik_ct') %}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') %}
    {%- set relation = source(cfg.source, cfg.change_table) %}
    {%- set layout = cdcflow.change_table_layout(relation, cfg) %}
    {%- set mask = layout.mask %}
    {%- set width = layout.width %}

    select
        '{{ table_name }}' as source_table,
        {{ var('cdcflow_qlik_header_prefix', 'header__') }}change_seq as change_seq,
        hex({{ mask }}) as mask_hex
    from {{ relation }}
    where
        not (
            {{ cdcflow.decode_change_mask_native(mask, cfg.column_names, layout.first_data_bit) }}
            <=> {{ cdcflow.decode_change_mask_udf(mask, cfg.column_names, layout.first_data_bit) }}
        )
        or not (
            {{ cdcflow.change_mask_fits_native(mask, width) }}
            <=> {{ cdcflow.change_mask_fits_udf(mask, width) }}
        )
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from disagreements
