{% macro run_started_at_text() %}
    {#- This run's start (UTC) as text: run_started_at, or var('cdcflow_run_started_at')
        ('YYYY-MM-DD HH:MM:SS[.ffffff]') when set, e.g. by unit tests. -#}
    {%- set pinned = var('cdcflow_run_started_at', none) -%}
    {{- return(pinned if pinned else run_started_at.strftime('%Y-%m-%d %H:%M:%S.%f')) -}}
{% endmacro %}
