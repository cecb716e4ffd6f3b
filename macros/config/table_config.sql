{% macro table_config(table_name, expected_format=none) %}
    {#- The validated configuration of one source table from var('cdcflow_tables'). -#}
    {%- set tables = var('cdcflow_tables', {}) -%}
    {%- if table_name not in tables -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' is not configured. Add it under vars.cdcflow_tables "
            ~ "in dbt_project.yml (configured: " ~ ((tables.keys() | list | join(', ')) or 'none') ~ ")."
        ) }}
    {%- endif -%}
    {%- set raw = tables[table_name] -%}
    {%- set registry = cdcflow.format_registry() -%}
    {%- set formats = registry.format_names -%}
    {%- set fmt = raw.get('format') -%}
    {%- if fmt not in formats -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has format '" ~ fmt ~ "'; expected one of: "
            ~ formats | join(', ') ~ "."
        ) }}
    {%- endif -%}
    {%- if expected_format is not none and fmt != expected_format -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' is configured with format '" ~ fmt
            ~ "' but this model expects '" ~ expected_format ~ "'."
        ) }}
    {%- endif -%}
    {%- set columns = raw.get('columns') -%}
    {%- if columns is not mapping or columns | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' needs `columns:`, a mapping of column name to "
            ~ "Spark type (e.g. `customer_id: int`) (vars.cdcflow_tables); for a Qlik __ct table already "
            ~ "landed, `cdcflow onboard --describe " ~ table_name ~ "` reads them."
        ) }}
    {%- endif -%}
    {#- a typed column first: of a flow mapping split at a comma, the type cut short is the cause -#}
    {%- set typed_first = [] -%}
    {%- for column, data_type in columns.items() if data_type is string -%}
        {%- do typed_first.append((column, data_type)) -%}
    {%- endfor -%}
    {%- for column, data_type in columns.items() if data_type is not string -%}
        {%- do typed_first.append((column, data_type)) -%}
    {%- endfor -%}
    {%- for column, data_type in typed_first -%}
        {%- set problem = cdcflow.column_type_problem(table_name, column, data_type) -%}
        {%- if problem -%}
            {{ exceptions.raise_compiler_error('cdcflow: ' ~ problem) }}
        {%- endif -%}
    {%- endfor -%}
    {%- set key = raw.get('key') -%}
    {%- if key is string -%}{%- set key = [key] -%}{%- endif -%}
    {%- if not key -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' needs `key:`, the list of its primary-key columns among "
            ~ (columns.keys() | list | join(', ')) ~ " (vars.cdcflow_tables)."
        ) }}
    {%- endif -%}
    {%- for column in key -%}
        {%- if column not in columns -%}
            {{ exceptions.raise_compiler_error(
                "cdcflow: key column '" ~ column ~ "' of table '" ~ table_name
                ~ "' is not among its columns (" ~ (columns.keys() | list | join(', ')) ~ ")."
            ) }}
        {%- endif -%}
    {%- endfor -%}
    {#- except_columns: columns of the source the table does not carry (the key always stays) -#}
    {%- set except_columns = raw.get('except_columns') or [] -%}
    {%- if except_columns is string -%}{%- set except_columns = [except_columns] -%}{%- endif -%}
    {%- for column in except_columns if column not in columns or column in key -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: except_columns of table '" ~ table_name ~ "' names '" ~ column ~ "', "
            ~ ("a key column: the key is always carried" if column in key else "which is not among its columns ("
            ~ (columns.keys() | list | join(', ')) ~ ")") ~ " (vars.cdcflow_tables)."
        ) }}
    {%- endfor -%}
    {%- if except_columns -%}
        {%- set selected = {} -%}
        {%- for column, data_type in columns.items() if column not in except_columns -%}
            {%- do selected.update({column: data_type}) -%}
        {%- endfor -%}
        {%- set columns = selected -%}
    {%- endif -%}
    {%- set column_names = columns.keys() | list -%}
    {%- set data_columns = [] -%}
    {%- for column in column_names if column not in key -%}
        {%- do data_columns.append(column) -%}
    {%- endfor -%}
    {%- set header_columns = raw.get('header_columns', var('cdcflow_qlik_header_columns', [
        'change_seq', 'change_oper', 'change_mask', 'stream_position', 'operation', 'transaction_id', 'timestamp'
    ])) -%}
    {%- if raw.get('valid_to_current') is not none and raw.get('valid_to_current') is not string -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has valid_to_current " ~ raw.get('valid_to_current')
            ~ ": give a SQL expression of a timestamp as text, e.g. \"timestamp'9999-12-31 00:00:00'\""
            ~ " (vars.cdcflow_tables)."
        ) }}
    {%- endif -%}
    {%- set deletes = raw.get('deletes', 'remove') -%}
    {%- if deletes not in ['remove', 'flag'] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has deletes '" ~ deletes ~ "'; expected remove (a delete"
            ~ " closes the key's version and removes it from _current) or flag (the delete is a version of"
            ~ " _history and _current keeps the key with is_deleted) (vars.cdcflow_tables)."
        ) }}
    {%- endif -%}
    {#- tracked columns: an update opens a version of _history only when it changes one
        (AUTO CDC's track_history_column_list / track_history_except_column_list) -#}
    {%- set tracked = raw.get('track_history_columns') -%}
    {%- set untracked = raw.get('track_history_except_columns') -%}
    {%- if tracked is not none and untracked is not none -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' sets both track_history_columns and"
            ~ " track_history_except_columns; keep one (vars.cdcflow_tables)."
        ) }}
    {%- endif -%}
    {%- for setting, names in [('track_history_columns', tracked), ('track_history_except_columns', untracked)]
        if names is not none -%}
        {%- if names is string -%}{%- set names = [names] -%}{%- endif -%}
        {%- for column in names if column not in data_columns -%}
            {{ exceptions.raise_compiler_error(
                "cdcflow: " ~ setting ~ " of table '" ~ table_name ~ "' names '" ~ column ~ "', "
                ~ ("a key column: a key's versions all have the same key" if column in key
                else "which the table does not carry (its columns but the key: " ~ data_columns | join(', ') ~ ")")
                ~ " (vars.cdcflow_tables)."
            ) }}
        {%- endfor -%}
    {%- endfor -%}
    {%- if tracked is string -%}{%- set tracked = [tracked] -%}{%- endif -%}
    {%- if untracked is string -%}{%- set untracked = [untracked] -%}{%- endif -%}
    {%- set skip_unchanged_versions = raw.get('skip_unchanged_versions', false) -%}
    {%- if skip_unchanged_versions not in [true, false] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has skip_unchanged_versions " ~ skip_unchanged_versions
            ~ "; expected true or false (vars.cdcflow_tables)."
        ) }}
    {%- endif -%}
    {%- if tracked is not none -%}
        {%- set history_columns = tracked -%}
    {%- elif untracked is not none -%}
        {%- set history_columns = [] -%}
        {%- for column in data_columns if column not in untracked -%}
            {%- do history_columns.append(column) -%}
        {%- endfor -%}
    {%- elif skip_unchanged_versions -%}
        {%- set history_columns = data_columns -%}
    {%- else -%}
        {#- every change opens a version -#}
        {%- set history_columns = none -%}
    {%- endif -%}
    {%- set decimal_handling_mode = raw.get('decimal_handling_mode', 'precise') -%}
    {%- if decimal_handling_mode not in ['precise', 'double', 'string'] -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table '" ~ table_name ~ "' has decimal_handling_mode '" ~ decimal_handling_mode
            ~ "'; use Debezium's value: precise, double or string."
        ) }}
    {%- endif -%}
    {%- set table_key_names = raw.get('table_key_names', {}) -%}
    {%- for column in table_key_names if column not in key -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: table_key_names of table '" ~ table_name ~ "' names '" ~ column
            ~ "', which is not a key column (" ~ key | join(', ') ~ ")."
        ) }}
    {%- endfor -%}
    {#- DirXML: the name each key column has in the event log's table_key (e.g. pk_empno) -#}
    {%- set key_names_in_log = {} -%}
    {%- for column in key -%}
        {%- do key_names_in_log.update({column: table_key_names.get(column, column) | lower}) -%}
    {%- endfor -%}
    {%- set format_entry = registry.formats[fmt] -%}
    {%- set raw_table_defaults = {} -%}
    {%- for setting, default in format_entry.raw_table_defaults.items() -%}
        {%- do raw_table_defaults.update({setting: default | replace('{table}', table_name)}) -%}
    {%- endfor -%}
    {%- set event_log_columns = dict(var('cdcflow_dirxml_event_log_columns', {})) -%}
    {%- do event_log_columns.update(raw.get('event_log_columns', {})) -%}
    {{ return({
        'name': table_name,
        'format': fmt,
        'source': raw.get('source', fmt),
        'change_table': raw.get('change_table', raw_table_defaults.get('change_table')),
        'raw_table': raw.get('raw_table', raw_table_defaults.get('raw_table')),
        'topic': raw.get('topic'),
        'source_schema': raw.get('source_schema'),
        'source_table': raw.get('source_table', table_name),
        'decimal_handling_mode': decimal_handling_mode,
        'connect_types': raw.get('connect_types', {}),
        'full_load_table': raw.get('full_load_table'),
        'query_back_table': raw.get('query_back_table', raw.get('source_table', table_name) | lower)
            if fmt == 'dirxml' else none,
        'table_key_names': key_names_in_log,
        'event_log_columns': event_log_columns,
        'key': key,
        'columns': columns,
        'column_names': column_names,
        'data_columns': data_columns,
        'header_columns': header_columns,
        'first_data_bit': header_columns | length,
        'may_omit_columns': format_entry.may_omit_columns,
        'relogs_changes': format_entry.relogs_changes,
        'relogs_other_operation': format_entry.relogs_other_operation,
        'valid_to_current': raw.get('valid_to_current'),
        'deletes': deletes,
        'except_columns': except_columns,
        'history_columns': history_columns,
    }) }}
{% endmacro %}
