{% macro run_loaded_at() %}
    {#- This run's start (UTC) as a timestamp literal: the `loaded_at` of every row it writes. -#}
    {{- return("to_timestamp('" ~ run_started_at.strftime('%Y-%m-%d %H:%M:%S.%f') ~ "')") -}}
{% endmacro %}

{% macro run_date() %}
    {#- This run's start date (UTC) as a date literal. -#}
    {{- return("date'" ~ run_started_at.strftime('%Y-%m-%d') ~ "'") -}}
{% endmacro %}
