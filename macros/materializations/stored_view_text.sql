{% macro stored_view_text(relation) %}
    {#- The query a view stored in the warehouse runs (its View Text), or none
        when there is no such view. Read from dbt's relation cache, filled at the
        start of the run by one `show table extended` per schema (the
        relation's information: "View Text: ..." followed by the next
        property); else by `describe table extended`. -#}
    {%- set cached = load_relation(relation) -%}
    {%- if cached is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set information = cached.information or '' -%}
    {%- set found = modules.re.search(
        '(?s)\\nView Text: (.*?)\\n(View Original Text|View Schema Mode|View Catalog and Namespace): ',
        '\n' ~ information) -%}
    {%- if found -%}
        {{ return(found.group(1)) }}
    {%- endif -%}
    {%- for row in run_query('describe table extended ' ~ relation) if row[0] == 'View Text' -%}
        {{ return(row[1]) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
