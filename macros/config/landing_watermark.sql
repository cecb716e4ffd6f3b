{% macro landing_watermark(relation, where=none, column='landed_at') %}
    {#- End of the processing range already read into `relation` (the newest
        `column`), less the landing overlap (var cdcflow_landing_overlap_minutes),
        as a literal. Rows landed after it are read; those read twice because of
        the overlap are de-duplicated by the models. -#}
    {%- set overlap = var('cdcflow_landing_overlap_minutes', 10) | int -%}
    {%- set query -%}
        select coalesce(max({{ column }}), timestamp'1900-01-01 00:00:00') - interval {{ overlap }} minutes
        from {{ relation }}
        {%- if where %}
        where {{ where }}
        {%- endif %}
    {%- endset -%}
    {{ return(cdcflow.incremental_value(query)) }}
{%- endmacro %}
