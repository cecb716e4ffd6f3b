{% macro dirxml_decided_in_run() %}
    {#- The filter a reader of a DirXML table's decided events
        (int_<table>__events_decided: the change log, dirxml_event_outcomes,
        dirxml_quarantine) puts on them: the events this run decided (loaded_at
        is the run's); every one when the reader is built from scratch (it then
        holds what every run so far decided). -#}
    {{ return('loaded_at = ' ~ cdcflow.run_loaded_at() if cdcflow.is_incremental_run() else 'true') }}
{% endmacro %}
