{% macro versions_rebuilt_in_this_run(table_name) %}
    {#- Whether this run rebuilds the group's version chain from its change log:
        a `dbt run`/`build`/`retry` that processes the group's range again
        (TFREDO, or ILUPDATE after a first run that did not end). -#}
    {%- if not execute or model.resource_type != 'model' or table_name not in cdcflow.cdc_groups_in_run() -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(cdcflow.processing_range(table_name).reprocessing == 'true') }}
{% endmacro %}
