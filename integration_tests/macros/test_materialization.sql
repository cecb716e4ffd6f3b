{#- cdcflow's data-test materialization: a build runs no query for the tests of
    tables with nothing new (docs/onboarding.md) -#}
{% materialization test, adapter='spark' %}
    {{ return(cdcflow.materialization_test_spark()) }}
{% endmaterialization %}
