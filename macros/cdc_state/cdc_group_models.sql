{% macro cdc_group_models(table_name) %}
    {#- Names of the models that process a CDC group's range: its own
        (int_<table>__changes_logged, int_<table>__versioned, <table>_current,
        <table>_history), those its format shares with other tables, and those
        its change log reads from this run only (group_required_models). -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set models = [
        'int_' ~ table_name ~ '__changes_logged', 'int_' ~ table_name ~ '__versioned',
        table_name ~ '_current', table_name ~ '_history',
    ] + cdcflow.source_format(cfg.format).shared_models -%}
    {%- for name in cdcflow.group_required_models(table_name) if name not in models -%}
        {%- do models.append(name) -%}
    {%- endfor -%}
    {{ return(models) }}
{% endmacro %}
