{% macro landed_in_range(ranges, from_start=none) %}
    {#- Filter: the raw row landed within the processing range (or, for several
        groups' `ranges`, within their union): after its start (unless
        `from_start`; by default, incremental runs only: a full build reads from
        the beginning) and no later than its end. Rows whose landing time is
        unknown are always read (see landed_at_expression) and de-duplicated by
        the models. -#}
    {%- if ranges is mapping -%}{%- set ranges = [ranges] -%}{%- endif -%}
    {%- if from_start is none -%}{%- set from_start = not cdcflow.is_incremental_run() -%}{%- endif -%}
    {%- set starts = ranges | map(attribute='start') | list -%}
    {%- set ends = ranges | map(attribute='end') | list -%}
    {%- set conditions = [] -%}
    {%- if not from_start and none not in starts -%}
        {%- do conditions.append('landed_at > ' ~ (starts[0] if starts | length == 1 else 'least(' ~ starts | join(', ') ~ ')')) -%}
    {%- endif -%}
    {%- if none not in ends -%}
        {%- do conditions.append('landed_at <= ' ~ (ends[0] if ends | length == 1 else 'greatest(' ~ ends | join(', ') ~ ')')) -%}
    {%- endif -%}
    {%- if conditions -%}
        ((({{ conditions | join(') and (') }})) or landed_at is null)
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}
