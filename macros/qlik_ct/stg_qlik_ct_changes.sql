{% macro stg_qlik_ct_changes(table_name) %}
    {{ return(adapter.dispatch('stg_qlik_ct_changes', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__stg_qlik_ct_changes(table_name) %}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {%- set prefix = var('cdcflow_qlik_header_prefix', 'header__') -%}
    {%- set relation = source(cfg.source, cfg.change_table) -%}
    {%- set problem = cdcflow.qlik_ct_table_problem(table_name) -%}
    {%- set layout = cdcflow.change_table_layout(relation, cfg) if problem is none else {
        'first_data_bit': cfg.first_data_bit, 'width': cfg.first_data_bit + cfg.column_names | length,
        'bits': range(cfg.first_data_bit, cfg.first_data_bit + cfg.column_names | length) | list,
        'mask': var('cdcflow_qlik_header_prefix', 'header__') ~ 'change_mask', 'types': {}} -%}
    {%- set contiguous = layout.bits == range(layout.bits[0], layout.bits[0] + layout.bits | length) | list -%}
    {%- set names_by_bit = [] -%}
    {%- for bit in range(layout.width) -%}
        {%- do names_by_bit.append(cfg.column_names[layout.bits.index(bit)] if bit in layout.bits else '') -%}
    {%- endfor -%}
    {%- set conversion_problem = cdcflow.conversion_problem(cfg, layout.types) -%}

with

source as (
    {%- if problem is none %}

    {{ cdcflow.landed_raw_rows(relation) }}
    {%- else %}

    -- no rows this run: the table's change log fails with the problem, the quarantine leaves the table out
    {{ cdcflow.qlik_ct_no_raw_rows(cfg, change_table=true) }}
    {%- endif %}

),

renamed as (

    select
        {{ prefix }}change_seq as change_seq,
        {{ prefix }}change_oper as change_oper,
        {{ layout.mask }} as change_mask,
        {{ prefix }}stream_position as stream_position,
        {{ prefix }}transaction_id as transaction_id,
        cast({{ prefix }}timestamp as timestamp) as header_timestamp,
        {{- cdcflow.typed_columns(cfg, layout.types) }},
        {%- if conversion_problem %}
        {{ conversion_problem }} as conversion_problem,
        {%- endif %}
        _cdcflow_raw_row as raw_row,
        _cdcflow_landed_at as landed_at
    from source

),

decoded as (

    select
        *,
        {{ cdcflow.qlik_change_seq_committed_at('change_seq') }} as change_seq_at,
        {%- if contiguous %}
        {{ cdcflow.decode_change_mask('change_mask', cfg.column_names, layout.first_data_bit) }} as changed_columns,
        {%- else %}
        -- the configured columns are a selection of the table's, or in another order: each its own bit
        {{ cdcflow.decode_change_mask_by_names(
            'change_mask', cfg.column_names, 'array(' ~ layout.bits | join(', ') ~ ')',
            cdcflow.string_array(names_by_bit)
        ) }} as changed_columns,
        {%- endif %}
        coalesce({{ cdcflow.change_mask_fits('change_mask', layout.width) }}, true) as is_mask_within_table
    from renamed
    -- the run's rows: the change log and the quarantine read them from here
    where {{ cdcflow.landed_for_readers(table_name) }}

),

validated as (

    select
        * {{- ' except (conversion_problem)' if conversion_problem }},
        -- the header timestamp is the source commit time; PostgreSQL sources
        -- show 1970-01-01 until commit (reference 001), then the change_seq time is used
        coalesce(
            nullif(header_timestamp, timestamp'1970-01-01 00:00:00'), change_seq_at
        ) as committed_at,
        case
            when change_oper is null or change_oper not in ('I', 'U', 'D', 'B')
                then concat('unknown change_oper ', coalesce(concat('''', change_oper, ''''), 'null'))
            when change_seq_at is null
                then concat(
                    'malformed change_seq ', coalesce(concat('''', change_seq, ''''), 'null'),
                    ': expected 35 digits, YYYYMMDDHHmmSShh then a 19-digit change number'
                )
            {%- if conversion_problem %}
            when conversion_problem is not null then conversion_problem
            {%- endif %}
            {%- for column in cfg.key %}
            when {{ column }} is null then 'null key column {{ column }}'
            {%- endfor %}
            when not is_mask_within_table
                then concat(
                    'change_mask ', hex(change_mask), ' sets a bit beyond the {{ layout.width }} columns',
                    ' of the change table (or is longer than 128 bytes)'
                )
        end as invalid_reason
    from decoded

)

-- a before image without its UPDATE is quarantined too, its raw row read back
-- from the change table (orphan_before_image_raw_rows)
{{ cdcflow.with_raw_row_for_quarantine('validated') }}
{% endmacro %}
