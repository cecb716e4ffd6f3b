{% macro nothing_new_setting(relations) %}
    {#- The session setting naming the CDC groups with nothing new in the running
        invocation (record_groups_with_nothing_new), one per state table. -#}
    {{ return('spark.cdcflow.nothingNew.' ~ relations.log.schema ~ '.' ~ relations.log.identifier) }}
{% endmacro %}
