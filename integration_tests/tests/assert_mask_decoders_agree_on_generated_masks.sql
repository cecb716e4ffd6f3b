{{ config(tags=['exhaustive']) }}
-- The native Spark SQL and the Python UDF change-mask decoders agree on generated
-- masks (tagged exhaustive: run by the test suite, skipped by `cdcflow run`):
-- every length from 1 to 128 bytes, trimmed (last byte non-zero) and untrimmed
-- (padded with zero bytes), plus every single bit of a 128-byte mask; decoded
-- through 64-column windows placed at bit 0, 5, 7, 504 and 960, so both low
-- and high bytes are compared. Returns the masks where they differ (decoded
-- columns, or whether the mask fits the table), and where the bits vary per row.
-- Every length and bit with CDCFLOW_FULL_SUITE=1 (tests/e2e/suite.py); otherwise
-- (CI) the lengths and bits of the bytes in and around each window and two bytes
-- between them, 35 of the 128: a third of the masks; alone, the test took 23.3 s
-- instead of 32.3 s (most of the rest is planning the comparisons).
{#- The comparisons are computed in a projection, which Spark's code generation
    splits into methods; a filter's predicate is compiled as one method, and with
    64 columns decoded three ways it outgrows the JVM's 64 KB method limit
    ("Code grows beyond 64 KB" in the log, then a slower interpreted fallback).
    A non-deterministic column that the filter also reads keeps the optimizer
    from pushing the comparison back into the filter (16 s instead of 52 s). #}
{%- set kept_in_projection = 'rand(0) as random' %}
{#- the mask lengths (bytes) compared, and the bytes (1 = the first) whose bits are set alone -#}
{%- if env_var('CDCFLOW_FULL_SUITE', '') == '1' %}
    {%- set mask_bytes = range(1, 129) | list %}
{%- else %}
    {%- set mask_bytes = (range(1, 11) | list) + [23, 24] + (range(62, 73) | list) + [100, 101]
        + (range(119, 129) | list) %}
{%- endif %}
{%- set generated_columns = [] %}
{%- for i in range(64) %}{% do generated_columns.append('c' ~ i) %}{% endfor %}

with

random_masks as (

    select
        concat('random/', length_bytes, '/', variant) as mask_case,
        unhex(
            concat_ws(
                '',
                transform(
                    sequence(1, length_bytes),
                    i -> lpad(
                        hex(
                            case
                                when i = length_bytes then pmod(hash(length_bytes, variant, i), 255) + 1
                                else pmod(hash(length_bytes, variant, i), 256)
                            end
                        ),
                        2,
                        '0'
                    )
                )
            )
        ) as trimmed_mask,
        128 - length_bytes as padding_bytes
    from (select explode(array({{ mask_bytes | join(', ') }})) as length_bytes) as lengths
    cross join (select explode(sequence(0, 2)) as variant) as variants

),

single_bit_masks as (

    select
        concat('bit/', bit) as mask_case,
        unhex(concat(repeat('00', bit div 8), lpad(hex(shiftleft(1, bit % 8)), 2, '0'))) as trimmed_mask,
        pmod(bit, 5) as padding_bytes
    from (select explode(sequence(0, 1023)) as bit) as bits
    where bit div 8 + 1 in ({{ mask_bytes | join(', ') }})

),

generated as (

    select mask_case, trimmed_mask as mask from random_masks
    union all
    select
        concat(mask_case, '/untrimmed') as mask_case,
        concat(trimmed_mask, unhex(repeat('00', padding_bytes))) as mask
    from random_masks
    where padding_bytes > 0
    union all
    select mask_case, trimmed_mask as mask from single_bit_masks
    union all
    select
        concat(mask_case, '/untrimmed') as mask_case,
        concat(trimmed_mask, unhex(repeat('00', padding_bytes))) as mask
    from single_bit_masks
    where padding_bytes > 0 and octet_length(trimmed_mask) + padding_bytes <= 128

),

disagreements as (
    {%- for first_bit in [0, 5, 7, 504, 960] %}

    select
        mask_case,
        hex(mask) as mask_hex,
        {{ first_bit }} as first_bit
    from (
        select
            mask_case,
            mask,
            not (
                {{ cdcflow.decode_change_mask_native('mask', generated_columns, first_bit) }}
                <=> {{ cdcflow.decode_change_mask_udf('mask', generated_columns, first_bit) }}
            )
            or not (
                {{ cdcflow.change_mask_fits_native('mask', first_bit + 64) }}
                <=> {{ cdcflow.change_mask_fits_udf('mask', first_bit + 64) }}
            ) as decoders_differ,
            {{ kept_in_projection }}
        from generated
    ) as compared
    where decoders_differ and random >= 0

    union all
    {%- endfor %}

    -- bits that vary per row (Qlik Kafka's metadata ordinals): column c<i> at bit
    -- offset + 13 i, c63 at none; the native decoder of decode_change_mask_by_names
    -- against both decoders of the names in bit order
    {%- for offset in [0, 181] %}

    select
        mask_case,
        hex(mask) as mask_hex,
        {{ offset }} as first_bit
    from (
        select
            mask_case,
            mask,
            not (
                {{ cdcflow.decode_change_mask_by_names('mask', generated_columns, 'column_bits', 'names_by_bit') }}
                <=> array_intersect(
                    {{ cdcflow.string_array(generated_columns) }}, {{ cdcflow.decode_change_mask_udf('mask', 'names_by_bit') }}
                )
            )
            or not (
                {{ cdcflow.decode_change_mask_by_names('mask', generated_columns, 'column_bits', 'names_by_bit') }}
                <=> array_intersect(
                    {{ cdcflow.string_array(generated_columns) }},
                    {{ cdcflow.decode_change_mask_native('mask', 'names_by_bit') }}
                )
            ) as decoders_differ,
            {{ kept_in_projection }}
        from (
            select
                *,
                transform(sequence(0, 62), i -> {{ offset }} + 13 * i) || array(-1) as column_bits,
                transform(
                    sequence(0, 1023),
                    b -> case
                        when b >= {{ offset }} and (b - {{ offset }}) % 13 = 0 and (b - {{ offset }}) div 13 < 63
                            then concat('c', (b - {{ offset }}) div 13)
                        else concat('other', b)
                    end
                ) as names_by_bit
            from generated
        ) as with_bits
    ) as compared
    where decoders_differ and random >= 0

    union all
    {%- endfor %}

    select 'none' as mask_case, cast(null as string) as mask_hex, 0 as first_bit
    where false

)

select * from disagreements
