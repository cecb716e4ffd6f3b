{% macro qlik_change_seq_committed_at(change_seq) %}
    {#- UTC timestamp from the YYYYMMDDHHmmSShh part of a Qlik change_seq (reference 001);
        null when the value is not 35 digits or the time is impossible.
        The seeds hold a malformed one (quarantined, tests/e2e/expected). -#}
    case
        when {{ change_seq }} rlike '^[0-9]{35}$' then make_timestamp(
            cast(substring({{ change_seq }}, 1, 4) as int),
            cast(substring({{ change_seq }}, 5, 2) as int),
            cast(substring({{ change_seq }}, 7, 2) as int),
            cast(substring({{ change_seq }}, 9, 2) as int),
            cast(substring({{ change_seq }}, 11, 2) as int),
            cast(concat(substring({{ change_seq }}, 13, 2), '.', substring({{ change_seq }}, 15, 2)) as decimal(4, 2)),
            'UTC'
        )
    end
{%- endmacro %}
