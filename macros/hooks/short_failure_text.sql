{% macro short_failure_text(result) %}
    {#- What a failed (or skipped) model's run result says, short enough for the
        state's ER text: the model, then Spark's error line ("[ERROR_CLASS]
        message", without dbt's "Runtime Error in model ..." headers). -#}
    {%- if result.status == 'skipped' -%}
        {{ return(result.node.name ~ ' was skipped: a node it depends on failed') }}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- for line in ((result.message or 'unknown error') | string).split('\n') -%}
        {%- set text = line | trim -%}
        {%- if text and not text.endswith(' Error') and ' Error in model ' not in text -%}
            {%- do lines.append(text) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set classified = [] -%}
    {%- for text in lines if text.startswith('[') -%}
        {%- do classified.append(text) -%}
    {%- endfor -%}
    {{ return(result.node.name ~ ' failed: ' ~ (classified[0] if classified else lines | join(' '))) }}
{% endmacro %}
