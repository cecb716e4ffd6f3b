{% macro table_model_ref(model_name) %}
    {#- The ref of a configured table's model from a model the package owns (a
        quarantine, DirXML's outcomes): the table's models live in the project
        that configures it (`cdcflow onboard` writes them there), so the ref
        names that project, and dbt resolves it without the warning a package
        node depending on a root project node by its name alone gives. -#}
    {{ return(ref(project_name, model_name)) }}
{% endmacro %}
