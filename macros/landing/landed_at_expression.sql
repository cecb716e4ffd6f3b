{% macro landed_at_expression(relation) %}
    {#- SQL giving when a raw row landed: var cdcflow_landed_at, by default Spark's
        _metadata.file_modification_time. Hive-format tables (STORED AS ...) and
        views have no _metadata column: for them the landing time is null, and rows
        with a null landing time are read by every run (and de-duplicated), so
        nothing is missed; set cdcflow_landed_at to a load-time column to make
        those runs incremental. A raw table that does not exist stops a model
        that runs with one short message naming it (not Spark's error with its
        query plan). -#}
    {%- set configured = var('cdcflow_landed_at', '_metadata.file_modification_time') -%}
    {%- if configured != '_metadata.file_modification_time' or not execute
        or (model is defined and model.resource_type == 'unit_test') -%}
        {{ return(configured) }}
    {%- endif -%}
    {#- the relation as dbt's cache knows it (filled at the start of the run by one
        `show table extended` per schema): whether it exists, and its Type and
        Provider in its information, without a statement -#}
    {%- set found = adapter.get_relation(
        database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
    {%- if found is none -%}
        {%- if invocation_args_dict.get('which') in ['run', 'build', 'retry'] -%}
            {%- do exceptions.raise_compiler_error(
                'cdcflow: raw table ' ~ relation ~ ' does not exist. Land it there, or set'
                ~ ' vars.cdcflow_raw_schema (or the raw table of its vars.cdcflow_tables entries) to where it'
                ~ ' landed; the next run reads it once it has landed.') -%}
        {%- endif -%}
        {{ return(configured) }}  {#- compile, docs: the raw tables may not have landed yet -#}
    {%- endif -%}
    {%- if found.information -%}
        {%- for line in found.information.split('\n') if found.is_view
            or line.startswith('Provider:') and line[9:] | trim | lower == 'hive' -%}
            {{ return('cast(null as timestamp)') }}
        {%- endfor -%}
        {{ return(configured) }}
    {%- endif -%}
    {#- added to the cache during the run (a seed): no information kept -#}
    {%- for row in run_query('describe table extended ' ~ relation) -%}
        {%- if row[0] == 'Type' and row[1] | upper == 'VIEW'
            or row[0] == 'Provider' and row[1] | lower == 'hive' -%}
            {{ return('cast(null as timestamp)') }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(configured) }}
{% endmacro %}
