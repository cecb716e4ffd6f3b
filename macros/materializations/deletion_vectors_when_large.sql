{% macro deletion_vectors_when_large(relation, properties=none) %}
    {#- Before a run MERGEs into `relation` (a version chain or <table>_current)
        on Delta Lake: turns deletion vectors on (table property
        delta.enableDeletionVectors) once the table holds at least
        var('cdcflow_deletion_vectors_from_mb') MB, so that a MERGE marks the rows
        it replaces in a small file beside the data instead of rewriting every
        file that holds one. Below that, rewriting a few small files costs less
        than the feature: Delta plans every read of a table whose protocol has
        it with one more job listing its files. A table keeps the feature once
        it has it (a protocol is never downgraded). Nothing on Iceberg.
        `properties`: the table's properties if the caller has read them
        (table_properties), else read here. -#}
    {%- if config.get('file_format') != 'delta' or not execute -%}{{ return(none) }}{%- endif -%}
    {%- set properties = properties if properties is not none else cdcflow.table_properties(relation) -%}
    {%- if properties.get('delta.enableDeletionVectors') == 'true' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set size = run_query('describe detail ' ~ relation).columns['sizeInBytes'].values()[0] -%}
    {%- if size is not none and size >= var('cdcflow_deletion_vectors_from_mb', 16) * 1048576 -%}
        {%- call statement('cdcflow_deletion_vectors') -%}
            alter table {{ relation }} set tblproperties ('delta.enableDeletionVectors' = 'true')
        {%- endcall -%}
    {%- endif -%}
{% endmacro %}
