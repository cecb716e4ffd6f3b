{% macro embedded_session() %}
    {#- Whether this dbt run is on the launcher's embedded session (`cdcflow run`,
        `cdcflow dbt`): the session's conf spark.cdcflow.embeddedSession names the
        dbt process itself (env var CDCFLOW_EMBEDDED_SESSION). No other process can
        use its state folder then (launcher/state_dir_lock.py). -#}
    {%- set embedded = env_var('CDCFLOW_EMBEDDED_SESSION', '') -%}
    {{ return(embedded != '' and run_query('set spark.cdcflow.embeddedSession')[0][1] == embedded) }}
{% endmacro %}
