{% macro dirxml_table_key_pairs(text) -%}
    {#- The (name, value) pairs of a DirXML table_key (reference 003:
        <name>=<value> joined by "+"; a value holding one of , ; ' + " = \ < >
        is delimited with double quotes, with \" and \\ inside) parsed in Spark
        SQL, as struct<pairs: array<struct<name, value>>, error: string> with a
        null error, the type of the Python UDF cdcflow_parse_table_key. Null when
        `text` does not follow the grammar or names a column twice: the UDF then
        says why (the staging passes it the key of those rows only, null for the others).
        integration_tests/tests/assert_table_key_parsers_agree.sql proves that
        both accept the same keys and give the same pairs. The regular
        expressions write the special characters as \xNN (' " \). -#}
    {%- set name = "[^,;\\\\x27+\\\\x22=\\\\x5C<>]+" -%}
    {%- set quoted = "\\\\x22(?:[^\\\\x22\\\\x5C]|\\\\x5C[\\\\x22\\\\x5C])*\\\\x22" -%}
    {%- set unquoted = "[^,;\\\\x27+\\\\x22=\\\\x5C<>]*" -%}
    {%- set pair = "(" ~ name ~ ")=(" ~ quoted ~ "|" ~ unquoted ~ ")" -%}
    case
        when {{ text }} rlike '^{{ pair }}(?:\\+{{ pair }})*\\z'
            and size(array_distinct(transform(regexp_extract_all({{ text }}, '{{ pair }}', 1), n -> lower(n))))
                = size(regexp_extract_all({{ text }}, '{{ pair }}', 1))
            then named_struct(
                'pairs',
                zip_with(
                    regexp_extract_all({{ text }}, '{{ pair }}', 1),
                    regexp_extract_all({{ text }}, '{{ pair }}', 2),
                    (pair_name, pair_value) -> named_struct(
                        'name', pair_name,
                        'value', case
                            when startswith(pair_value, '"')
                                then regexp_replace(
                                    substr(pair_value, 2, length(pair_value) - 2), '\\x5C([\\x22\\x5C])', '$1'
                                )
                            else pair_value
                        end
                    )
                ),
                'error', cast(null as string)
            )
    end
{%- endmacro %}
