{% materialization cdcflow_current, adapter='spark' %}
    {#- A <table>_current table on Delta Lake or Iceberg (merged_current_model,
        whose query gives every key's open link with its loaded_at and
        cdcflow_removed). A first build, a --full-refresh or a relation of
        another kind creates it (CREATE OR REPLACE TABLE ... AS, one commit)
        from the keys not removed; a later run MERGEs in the open links the
        chain wrote since the table's property cdcflow.merged_until (a removed
        key is deleted, a changed one updated, a new one inserted; deletion
        vectors turned on first once the table is large enough,
        deletion_vectors_when_large), one commit,
        then moves the property to this run's start. A kill between the two
        leaves the older mark: the next run merges those links again, which
        changes nothing. Writes nothing when the model's groups have nothing
        new (has_nothing_new). -#}
    {%- if cdcflow.has_nothing_new() -%}
        {{ run_hooks(pre_hooks) }}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {%- set existing = load_relation(this) -%}
    {#- read once: the mark of what was merged, and whether deletion vectors are on -#}
    {%- set properties = cdcflow.table_properties(existing)
        if cdcflow.stored_in_table_format(existing) and not should_full_refresh() else {} -%}
    {%- set merged_until = properties.get('cdcflow.merged_until') -%}
    {{ run_hooks(pre_hooks) }}
    {%- if merged_until is none -%}
        {%- if existing is not none and not cdcflow.stored_in_table_format(existing) -%}
            {%- do adapter.drop_relation(existing) -%}
        {%- endif -%}
        {%- call statement('main') -%}
            {{ create_table_as(False, this.incorporate(type='table'),
                'select * except (loaded_at, cdcflow_removed) from (' ~ sql ~ '\n) as open_link where not cdcflow_removed') }}
        {%- endcall -%}
    {%- else -%}
        {%- set key = config.get('unique_key') -%}
        {%- set columns = adapter.get_columns_in_relation(this) | map(attribute='name') | list -%}
        {%- do cdcflow.deletion_vectors_when_large(this, properties) -%}
        {%- call statement('main') -%}
            merge into {{ this }} as stored
            using (
                select * from ({{ sql }}
                ) as open_link
                where loaded_at > to_timestamp('{{ merged_until }}')
            ) as changed
                on {{ cdcflow.key_match('stored', 'changed', key) }}
            when matched and changed.cdcflow_removed then delete
            when matched then update set
                {%- for column in columns %}
                {{ column }} = changed.{{ column }}{{ ',' if not loop.last }}
                {%- endfor %}
            when not matched and not changed.cdcflow_removed then insert ({{ columns | join(', ') }})
                values ({% for column in columns %}changed.{{ column }}{{ ', ' if not loop.last }}{% endfor %})
        {%- endcall -%}
    {%- endif -%}
    {%- call statement('cdcflow_merged_until') -%}
        alter table {{ this }} set tblproperties ('cdcflow.merged_until' = '{{ cdcflow.run_started_at_text() }}')
    {%- endcall -%}
    {{ run_hooks(post_hooks) }}
    {{ return({'relations': [this]}) }}
{% endmaterialization %}
