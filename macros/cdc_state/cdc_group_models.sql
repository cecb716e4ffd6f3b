{% macro cdc_group_models(table_name) %}
    {#- Names of the models that process a CDC group's range: its own
        (int_<table>__changes_logged, int_<table>__versioned, <table>_current,
        <table>_history) and those its format shares with other tables. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set models = [
        'int_' ~ table_name ~ '__changes_logged', 'int_' ~ table_name ~ '__versioned',
        table_name ~ '_current', table_name ~ '_history', cfg.format ~ '_quarantine'
    ] -%}
    {%- if cfg.format == 'qlik_kafka' -%}
        {%- do models.append('int_qlik_kafka__table_versions') -%}
    {%- elif cfg.format == 'dirxml' -%}
        {%- do models.append('dirxml_event_outcomes') -%}
    {%- endif -%}
    {{ return(models) }}
{% endmacro %}
