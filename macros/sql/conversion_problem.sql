{% macro conversion_problem(cfg, landed_types) %}
    {#- SQL over the landed columns of a row: why one of its values does not
        convert to its configured type ("value '...' of column c (landed as
        string) does not cast to int"), else null; none when every configured
        column landed with its configured type (nothing can fail: no check is
        added to the query). No value is made null quietly: the caller puts the
        row in its quarantine, as the Kafka formats do. -#}
    {%- set checks = [] -%}
    {%- for column, data_type in cfg.columns.items() -%}
        {%- set landed = landed_types.get(column | lower) -%}
        {%- if cdcflow.needs_conversion(landed, data_type) -%}
            {%- do checks.append(
                "when " ~ column ~ " is not null and try_cast(" ~ column ~ " as " ~ data_type ~ ") is null then"
                ~ " concat('value ''', cast(" ~ column ~ " as string), ''' of column " ~ column ~ " (landed as "
                ~ landed ~ ") does not cast to " ~ data_type ~ "')") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not checks -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return('case ' ~ checks | join(' ') ~ ' end') }}
{% endmacro %}
