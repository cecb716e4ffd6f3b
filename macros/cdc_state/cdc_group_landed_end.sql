{% macro cdc_group_landed_end(table_name, known_ends) %}
    {#- The landing position (microseconds since the epoch, as text; none when
        nothing has landed) of a CDC group's raw tables now: the newest landing
        time of its change table and full load (qlik_ct) or of its landing table.
        `known_ends` caches the value per raw table (shared landing tables). -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set names = [cfg.change_table, cfg.full_load_table] if cfg.format == 'qlik_ct' else [cfg.raw_table] -%}
    {%- set ends = [] -%}
    {%- for node in graph.sources.values()
        if node.package_name == project_name and node.source_name == cfg.source and node.name in names -%}
        {%- set relation = adapter.get_relation(node.database, node.schema, node.identifier) -%}
        {%- if relation is not none -%}
            {%- set cache_key = relation | string -%}
            {%- if cache_key not in known_ends -%}
                {%- set value = run_query(
                    'select unix_micros(max(' ~ cdcflow.landed_at_expression(relation) ~ ')) from ' ~ relation
                ).columns[0].values()[0] -%}
                {%- do known_ends.update({cache_key: value}) -%}
            {%- endif -%}
            {%- if known_ends[cache_key] is not none -%}
                {%- do ends.append(known_ends[cache_key] | int) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(ends | max if ends else none) }}
{% endmacro %}
