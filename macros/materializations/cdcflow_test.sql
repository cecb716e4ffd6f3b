{% materialization test, adapter='spark' %}
    {#- dbt's test materialization, except for a data test of models whose CDC
        groups have nothing new in this build (test_has_nothing_new): those models
        are as the run that tested them left them, so the test reads nothing. One
        constant statement per run gives dbt its result (no failure), which the
        run's other such tests reuse (run_memo) without a statement, nor a
        connection: over a Thrift server each opened and closed a session for
        it. Failures stored by an earlier run are left as they are. Applies in
        cdcflow's own project; a project installing cdcflow opts in with a
        materialization of its own returning
        cdcflow.materialization_test_spark() (docs/onboarding.md). -#}
    {%- if cdcflow.test_has_nothing_new() -%}
        {%- set memo = cdcflow.run_memo() -%}
        {%- set passed = memo.get('unchanged_test_result') -%}
        {%- if passed is none -%}
            {#- two threads may both get here first: each runs the statement -#}
            {%- call statement('main', fetch_result=True) -%}
                select 0 as failures, false as should_warn, false as should_error
            {%- endcall -%}
            {%- do memo.update({'unchanged_test_result': load_result('main')}) -%}
        {%- else -%}
            {%- do store_result('main', response=passed.response, agate_table=passed.table) -%}
        {%- endif -%}
        {{ return({'relations': []}) }}
    {%- endif -%}
    {{ return(dbt.materialization_test_default()) }}
{% endmaterialization %}
