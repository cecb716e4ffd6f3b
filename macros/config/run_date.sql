{% macro run_date() %}
    {#- This run's start date as a date literal (the partition of the links it closes). -#}
    {{- return("date'" ~ cdcflow.run_started_at_text()[:10] ~ "'") -}}
{% endmacro %}
