{% macro change_log_range_start(table_name) %}
    {#- For a model that reads a table's landed rows beside its change log (a
        quarantine, the DirXML outcomes): the start of the processing range the
        log reads in this run, i.e. the end of the ranges its previous runs read
        (less the landing overlap), as a literal; none on a full build. Referring
        to the log makes the model run after it. -#}
    {%- set change_log = ref('int_' ~ table_name ~ '__changes_logged') -%}
    {%- if not is_incremental() -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(cdcflow.landing_watermark(
        change_log, where='loaded_at < ' ~ cdcflow.run_loaded_at(), column='landed_until'
    )) }}
{% endmacro %}
