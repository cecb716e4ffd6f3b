{% macro typed_columns(cfg, landed_types={}, absent=[]) %}
    {#- The table's configured columns, each as its configured Spark type: as
        landed when the raw table has that type already, else converted
        (try_cast: null when the value does not convert, which
        conversion_problem then reports). `landed_types`: column (lower case)
        -> landed type, from a DESCRIBE; empty when unknown. `absent`: columns
        the raw table does not have (yet): null. -#}
    {%- for column, data_type in cfg.columns.items() %}
        {%- if column in absent %}
        cast(null as {{ data_type }}) as {{ column }}{{ ',' if not loop.last }}
        {%- elif cdcflow.needs_conversion(landed_types.get(column | lower), data_type) %}
        try_cast({{ column }} as {{ data_type }}) as {{ column }}{{ ',' if not loop.last }}
        {%- else %}
        cast({{ column }} as {{ data_type }}) as {{ column }}{{ ',' if not loop.last }}
        {%- endif %}
    {%- endfor %}
{%- endmacro %}
