{% macro run_loaded_at() %}
    {#- This run's start as a timestamp literal: the `loaded_at` of every row it writes. -#}
    {{- return("to_timestamp('" ~ cdcflow.run_started_at_text() ~ "')") -}}
{% endmacro %}
