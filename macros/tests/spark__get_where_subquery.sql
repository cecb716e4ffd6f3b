{% macro spark__get_where_subquery(relation) %}
    {#- The relation a generic data test reads (dbt's get_where_subquery, dispatched;
        a project installing cdcflow opts in with `dispatch: [{macro_namespace:
        dbt, search_order: [<project>, cdcflow, dbt]}]`): dbt's own, except
        for a test of a model whose CDC groups have nothing new in this run
        (test_has_nothing_new): the model did not change since the run that
        tested it, so the test reads no row. -#}
    {%- if cdcflow.test_has_nothing_new() -%}
        {{ return('(select * from ' ~ relation ~ ' where false) dbt_subquery') }}
    {%- endif -%}
    {{ return(dbt.default__get_where_subquery(relation)) }}
{% endmacro %}
