{% macro appended_in_this_run() %}
    {#- The filter a model puts on state appended to across runs (a DirXML
        table's decided events, a `__ct` table's before images waiting for
        their UPDATE) to read what this run appended: loaded_at is the run's;
        every row when the reader is built from scratch (it then holds what
        every run so far appended). -#}
    {{ return('loaded_at = ' ~ cdcflow.run_loaded_at() if cdcflow.is_incremental_run() else 'true') }}
{% endmacro %}
