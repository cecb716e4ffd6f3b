{% macro default__partitioned_valid_versions(versions, versioned, key_columns) %}
    {#- history_view's versions on parquet: the rows of `versions` (a subquery
        of int_<table>__versioned, `versioned`) no later run superseded, by an
        anti-join on the chain's touches (versioned_valid_links). -#}
    {{ return(cdcflow.versioned_valid_links(
        versions, '(' ~ cdcflow.versioned_touches(versioned, key_columns) ~ ')', key_columns)) }}
{% endmacro %}
