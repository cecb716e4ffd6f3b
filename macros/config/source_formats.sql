{% macro source_formats() %}
    {#- The formats cdcflow reads: name -> its entry point, the macro
        macros/<name>/<name>_format.sql that tells the format-independent macros
        what they need to know of it (read it through source_format). -#}
    {{ return({
        'qlik_ct': cdcflow.qlik_ct_format,
        'qlik_kafka': cdcflow.qlik_kafka_format,
        'debezium': cdcflow.debezium_format,
        'dirxml': cdcflow.dirxml_format,
    }) }}
{% endmacro %}
