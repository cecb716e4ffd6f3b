{% macro merged_table_properties() %}
    {#- The table properties of the tables a run MERGEs into (the version chain and
        <table>_current, config tblproperties): on Delta Lake, deletion vectors, so
        that a MERGE marks the rows it replaces instead of rewriting every file that
        holds one. Only these tables: Delta plans every read of a table with the
        feature with one more listing of its files, which the tables a run rebuilds
        or appends to would pay for nothing. -#}
    {{ return({'delta.enableDeletionVectors': 'true'} if cdcflow.table_format() == 'delta' else none) }}
{% endmacro %}
