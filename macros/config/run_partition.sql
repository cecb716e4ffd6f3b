{% macro run_partition() %}
    {#- This run's partition value (written_in_run): its start, 'YYYYMMDDTHHMMSS'. -#}
    {%- set started = cdcflow.run_started_at_text() -%}
    {{- return("'" ~ started[0:4] ~ started[5:7] ~ started[8:10] ~ 'T' ~ started[11:13] ~ started[14:16] ~ started[17:19] ~ "'") -}}
{% endmacro %}
