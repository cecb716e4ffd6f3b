{% materialization test, adapter='spark' %}
    {#- dbt's test materialization, except for a data test of models whose CDC
        groups have nothing new in this build (test_has_nothing_new): those models
        are as the run that tested them left them, so the test reads nothing. One
        constant statement gives dbt its result (no failure); failures stored by
        an earlier run are left as they are. Applies in cdcflow's own project; a
        project installing cdcflow opts in with a materialization of its own
        returning cdcflow.materialization_test_spark() (docs/onboarding.md). -#}
    {%- if cdcflow.test_has_nothing_new() -%}
        {%- call statement('main', fetch_result=True) -%}
            select 0 as failures, false as should_warn, false as should_error
        {%- endcall -%}
        {{ return({'relations': []}) }}
    {%- endif -%}
    {{ return(dbt.materialization_test_default()) }}
{% endmaterialization %}
