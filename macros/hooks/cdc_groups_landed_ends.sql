{% macro cdc_groups_landed_ends(groups) %}
    {#- CDC group -> {'end': the landing position (microseconds since the epoch;
        none when nothing has landed) of its raw tables now, 'missing': its raw
        tables that do not exist ('schema.name (vars.cdcflow_tables.<table>.<setting>)'), 'read_in_full': whether one of its
        raw tables has no landing time (a Hive-format table or a view, read in full
        by every run: what lands there moves no end, so the group is never taken
        for one with nothing new)}: the newest landing time of its
        raw tables (its format's raw_table_settings: a __ct change table and its
        full load, or a landing table). One query
        for every raw table of the run (landing tables shared by groups are read
        once): the CE each group fixes at the start of a run. -#}
    {%- set relations_of = {} -%}
    {%- set missing_of = {} -%}
    {%- set raw_relations = [] -%}
    {%- for table_name in groups -%}
        {%- set cfg = cdcflow.table_config(table_name) -%}
        {%- do relations_of.update({table_name: []}) -%}
        {%- do missing_of.update({table_name: []}) -%}
        {%- for setting in cdcflow.source_format(cfg.format).raw_table_settings -%}
            {%- set raw = cdcflow.raw_table_relation(cfg, setting) -%}
            {%- if raw and raw.relation is none -%}
                {%- do missing_of[table_name].append(
                    raw.name ~ ' (vars.cdcflow_tables.' ~ table_name ~ '.' ~ setting ~ ')') -%}
            {%- elif raw -%}
                {%- do relations_of[table_name].append(raw.relation | string) -%}
                {%- if raw.relation | string not in raw_relations | map('string') | list -%}
                    {%- do raw_relations.append(raw.relation) -%}
                {%- endif -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set ends = {} -%}
    {%- set without_landing_time = [] -%}
    {%- if raw_relations -%}
        {%- set selects = [] -%}
        {%- for relation in raw_relations -%}
            {%- set landed_at = cdcflow.landed_at_expression(relation) -%}
            {%- if landed_at == 'cast(null as timestamp)' -%}
                {%- do without_landing_time.append(relation | string) -%}
            {%- endif -%}
            {%- do selects.append('select ' ~ cdcflow.sql_string(relation | string) ~ ' as relation, unix_micros(max('
                ~ landed_at ~ ')) as landed_end from ' ~ relation) -%}
        {%- endfor -%}
        {%- for row in run_query(selects | join('\nunion all\n')) -%}
            {%- do ends.update({row[0]: row[1]}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set landed_ends = {} -%}
    {%- for table_name in groups -%}
        {%- set known = [] -%}
        {%- for relation in relations_of[table_name] if ends.get(relation) is not none -%}
            {%- do known.append(ends[relation] | int) -%}
        {%- endfor -%}
        {%- do landed_ends.update({table_name: {
            'end': known | max if known else none, 'missing': missing_of[table_name],
            'read_in_full': relations_of[table_name] | select('in', without_landing_time) | list | length > 0}}) -%}
    {%- endfor -%}
    {{ return(landed_ends) }}
{% endmacro %}
