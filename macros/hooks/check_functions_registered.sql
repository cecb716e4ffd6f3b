{% macro check_functions_registered() %}
    {#- Stops the run before it takes a range when the Spark session lacks the
        Python functions the state hooks call (udfs/spark_registration.py): dbt
        run against a Spark or Thrift server that cdcflow did not start. One
        catalog lookup, no Spark job. -#}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set needed = ['cdcflow_cdc_state_begin_run', 'cdcflow_cdc_state_end_run'] -%}
    {%- set found = run_query("show user functions like 'cdcflow_*'").columns[0].values()
        | map('lower') | map('replace', 'spark_catalog.', '') | list -%}
    {%- set missing = needed | reject('in', found) | list -%}
    {%- if missing -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: the Spark session has no function " ~ missing | join(', ')
            ~ "; run dbt against a Thrift server started by `cdcflow serve`, or through `cdcflow run` / `cdcflow dbt`"
            ~ " (both register cdcflow's functions: udfs/spark_registration.py)."
        ) }}
    {%- endif -%}
{% endmacro %}
