{% macro drop_incremental_temp_view(relation) %}
    {#- Post-hook of every incremental model: drops the temporary view dbt-spark's
        incremental materialization leaves behind (`<model>__dbt_tmp`, the new
        rows it inserts from). Over a Thrift server with one shared session
        (`singleSession`), those views pile up and every connection close
        re-analyzes each of them (SparkSQLSessionManager.closeSession ->
        uncacheTable): seconds per model by the end of a run. -#}
    drop view if exists {{ relation.identifier }}__dbt_tmp
{%- endmacro %}
