{% macro change_table_layout(relation, cfg) %}
    {#- How a landed change table is laid out, read with a DESCRIBE when the model
        runs, once per run (landed_columns; not from the relation cache, which does
        not yet know tables that seeds created in the same run):
          first_data_bit  ordinal of the first configured column = its change_mask
                          bit (reference 001: bit N is the column at ordinal N,
                          header columns included, e.g. 8 with partition_name);
          bits            each configured column's bit, its ordinal in the table,
                          in the order of the configuration (any order, any
                          subset of the table's columns: column selection);
          width           number of columns, for rejecting wider masks;
          mask            the change_mask as binary (Replicate writes varbinary;
                          text targets and CSV seeds land a hex string: unhexed);
          problem         none, or why the configuration does not fit the table
                          (a configured column it lacks), for qlik_ct_table_problem;
          types           column (lower case) -> landed type, for converting
                          the data columns (typed_columns, conversion_problem).
        Falls back to the configured header columns when the table cannot be read
        (parse time, or before it exists). -#}
    {%- set mask_column = var('cdcflow_qlik_header_prefix', 'header__') ~ 'change_mask' -%}
    {%- set layout = {
        'first_data_bit': cfg.first_data_bit,
        'bits': range(cfg.first_data_bit, cfg.first_data_bit + cfg.column_names | length) | list,
        'width': cfg.first_data_bit + cfg.column_names | length,
        'mask': mask_column,
        'problem': none,
        'types': {},
    } -%}
    {%- if execute and model.resource_type != 'unit_test' -%}
        {%- set landed = cdcflow.landed_columns(relation) -%}
        {%- set names = landed | map(attribute='name') | map('lower') | list -%}
        {%- if names -%}
            {%- for col in landed -%}
                {%- do layout.types.update({col.name | lower: col.dtype | lower}) -%}
            {%- endfor -%}
            {%- set missing = [] -%}
            {%- for column in cfg.column_names if column | lower not in names -%}
                {%- do missing.append("'" ~ column ~ "'") -%}
            {%- endfor -%}
            {%- if missing -%}
                {%- do layout.update({'problem': "cdcflow: table '" ~ cfg.name ~ "': no column " ~ missing | join(', ')
                    ~ " in " ~ relation ~ " (vars.cdcflow_tables." ~ cfg.name ~ ".columns); its columns are: "
                    ~ landed | map(attribute='name') | join(', ') ~ "."}) -%}
                {{ return(layout) }}
            {%- endif -%}
            {%- set bits = [] -%}
            {%- for column in cfg.column_names -%}
                {%- do bits.append(names.index(column | lower)) -%}
            {%- endfor -%}
            {%- do layout.update({'first_data_bit': bits[0], 'bits': bits, 'width': names | length}) -%}
            {%- for col in landed if col.name | lower == mask_column | lower and col.dtype | lower == 'string' -%}
                {%- do layout.update({'mask': 'unhex(' ~ mask_column ~ ')'}) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(layout) }}
{% endmacro %}
