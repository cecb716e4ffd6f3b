{% macro record_columns_checked(relations, groups, latest) %}
    {#- on-run-end: for each CDC group of the run, the fingerprint of the
        configured columns its tables follow now (configured_columns_fingerprint)
        where it ended TFEND (its models ran, follow_configured_columns' checks
        passed or were not needed), else none, kept as the run summaries' table
        property cdcflow.columns_checked.<group>. The next run reads it from
        dbt's relation cache (columns_checked): a group with nothing new whose
        configuration has not changed since is not checked again (no `describe`
        of its tables; over Thrift, no session). One `alter table` when a value
        changes, none otherwise. -#}
    {%- set noted = graph.get('cdcflow_columns_checked') or {} -%}
    {%- set recorded = noted.recorded if noted.get('invocation_id') == invocation_id else {} -%}
    {%- set changed = [] -%}
    {%- for table_name in groups -%}
        {%- set fingerprint = cdcflow.configured_columns_fingerprint(table_name)
            if latest.get(table_name) and latest[table_name]['state_name'] == 'TFEND' else 'none' -%}
        {%- if recorded.get(table_name) != fingerprint -%}
            {%- do changed.append(cdcflow.sql_string('cdcflow.columns_checked.' ~ table_name) ~ ' = '
                ~ cdcflow.sql_string(fingerprint)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if changed -%}
        {%- do run_query('alter table ' ~ relations.runs ~ ' set tblproperties (' ~ changed | join(', ') ~ ')') -%}
    {%- endif -%}
{% endmacro %}
