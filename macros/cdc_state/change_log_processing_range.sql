{% macro change_log_processing_range(table_name) %}
    {#- processing_range(table_name), for a model that reads a table's landed rows
        beside its change log (a quarantine, the DirXML outcomes): referring to the
        log makes the model run after it, which the DirXML change log needs (it
        reads the outcomes of earlier runs only). -#}
    {%- set change_log = ref('int_' ~ table_name ~ '__changes_logged') -%}
    {{ return(cdcflow.processing_range(table_name)) }}
{% endmacro %}
