{% macro default__merged_chain_columns() %}
    {#- The columns a Delta Lake or Iceberg chain adds after version_columns'
        own: none. -#}
    {{ return([]) }}
{% endmacro %}
