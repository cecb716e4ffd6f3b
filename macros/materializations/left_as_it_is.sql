{% macro left_as_it_is() %}
    {#- What a cdcflow materialization returns for a model with nothing new
        (has_nothing_new): dbt's result of the node ("nothing new", the text dbt
        prints beside the model) stored without running a statement, and the
        relation, unchanged. (Every argument of store_raw_result given: its
        defaults are typing objects that run_results.json cannot hold.) -#}
    {%- do store_raw_result('main', message='nothing new', code='NOTHING NEW', rows_affected=none) -%}
    {{ return({'relations': [this]}) }}
{% endmacro %}
