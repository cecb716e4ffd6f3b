{% macro landed_at_expression(relation) %}
    {#- SQL giving when a raw row landed: var cdcflow_landed_at, by default Spark's
        _metadata.file_modification_time. Hive-format tables (STORED AS ...) and
        views have no _metadata column: for them the landing time is null, and rows
        with a null landing time are read by every run (and de-duplicated), so
        nothing is missed; set cdcflow_landed_at to a load-time column to make
        those runs incremental. -#}
    {%- set configured = var('cdcflow_landed_at', '_metadata.file_modification_time') -%}
    {%- if configured != '_metadata.file_modification_time' or not execute
        or (model is defined and model.resource_type == 'unit_test') -%}
        {{ return(configured) }}
    {%- endif -%}
    {%- if adapter.get_columns_in_relation(relation) | length == 0 -%}
        {{ return(configured) }}
    {%- endif -%}
    {%- for row in run_query('describe table extended ' ~ relation) -%}
        {%- if row[0] == 'Type' and row[1] | upper == 'VIEW'
            or row[0] == 'Provider' and row[1] | lower == 'hive' -%}
            {{ return('cast(null as timestamp)') }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(configured) }}
{% endmacro %}
