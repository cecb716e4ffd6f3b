{% macro cdc_group_models(table_name) %}
    {#- Names of the models that process a CDC group's range: its own
        (int_<table>__changes_logged, int_<table>__versioned, <table>_current,
        <table>_history), those its format shares with other tables, and those
        its change log reads from this run only (the format's required_models:
        its staging written once per run...). -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set entry = cdcflow.source_format(cfg.format) -%}
    {%- set models = [
        'int_' ~ table_name ~ '__changes_logged', 'int_' ~ table_name ~ '__versioned',
        table_name ~ '_current', table_name ~ '_history',
    ] + entry.shared_models -%}
    {%- for pattern in entry.required_models -%}
        {%- set name = pattern | replace('{table}', table_name) -%}
        {%- if name not in models -%}{%- do models.append(name) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(models) }}
{% endmacro %}
