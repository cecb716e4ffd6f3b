{% macro any_built_from_scratch(model_names) %}
    {#- Whether this run builds one of the models `model_names` (where their
        config puts them: model_relation) from scratch: it does not exist yet, or the run is a
        --full-refresh. A model that holds only what a run reads for them must
        then read every landed row. -#}
    {%- if not execute or flags.FULL_REFRESH -%}
        {{ return(true) }}
    {%- endif -%}
    {%- for name in model_names -%}
        {%- if cdcflow.model_relation(name) is none -%}
            {{ return(true) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(false) }}
{% endmacro %}
