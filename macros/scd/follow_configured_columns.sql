{% macro follow_configured_columns(relation, table_name, model_kind, check_dropped=true) %}
    {#- The columns of a table's change log (`model_kind` change_log) or
        versioned model (versioned) follow its configuration
        (vars.cdcflow_tables) without a full refresh. A configured column the
        stored table lacks (the source gained it mid-stream) is added now (ALTER
        TABLE ... ADD COLUMNS): the rows stored before it have null there, and
        the model's query, which may read the table itself, sees it; on-run-start
        does this for every group of the run (cdc_state_begin_run), before any
        model reads the tables. A stored column no longer configured (dropped or
        renamed at the source) stops the model with a message saying what to do
        (the models' pre-hook, `check_dropped`): a history keeps its columns.
        Nothing to do on a first build or a --full-refresh, nor for a group with
        nothing new whose configured columns are those its tables were last
        found to follow (columns_checked). Renders nothing. -#}
    {%- if not execute or flags.FULL_REFRESH -%}{{ return('') }}{%- endif -%}
    {#- a group with nothing new whose tables the last run found to follow this
        configuration (cdc_state_begin_run, columns_checked): nothing to check -#}
    {%- set noted = graph.get('cdcflow_columns_checked') or {} -%}
    {%- if noted.get('invocation_id') == invocation_id and table_name in noted.groups -%}
        {{ return('') }}
    {%- endif -%}
    {%- set stored = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if stored is none or stored.type != 'table' -%}{{ return('') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set configured = cfg.column_names | map('lower') | list -%}
    {%- if model_kind == 'versioned' -%}
        {%- set own = cdcflow.version_columns(cfg) | map('lower') | reject('in', configured) | list -%}
    {%- else -%}
        {%- set own = ['operation', 'change_order', 'committed_at', 'transaction_id', 'changed_columns',
            'present_columns', 'source_format', 'landed_at', 'landed_until', 'reprocessing', 'loaded_at',
            'change_date'] -%}
    {%- endif -%}
    {%- set names = adapter.get_columns_in_relation(stored) | map(attribute='name') | map('lower') | list -%}
    {%- for name in names if check_dropped and name not in own and name not in configured -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "': column '" ~ name ~ "' is in " ~ stored ~ " but no longer in"
            ~ " vars.cdcflow_tables." ~ table_name ~ ".columns, and a history keeps its columns. Dropped at the"
            ~ " source: keep it configured (it is null from now on). Renamed: keep the old name and add the"
            ~ " new one. To remove it anyway, rebuild the table from what is still landed:"
            ~ " dbt run --full-refresh --selector " ~ table_name ~ "."
        ) }}
    {%- endfor -%}
    {%- set added = [] -%}
    {%- for column in cfg.column_names if column | lower not in names -%}
        {%- do added.append(adapter.quote(column) ~ ' ' ~ cfg.columns[column]) -%}
    {%- endfor -%}
    {%- if added -%}
        {{ log("cdcflow: " ~ stored ~ " gains column(s) " ~ added | join(', ') ~ " (vars.cdcflow_tables."
            ~ table_name ~ ")", info=true) }}
        {%- do run_query('alter table ' ~ stored ~ ' add columns (' ~ added | join(', ') ~ ')') -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
