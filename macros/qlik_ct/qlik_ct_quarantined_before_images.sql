{% macro qlik_ct_quarantined_before_images(cfg) %}
    {#- The before images of table `cfg` that earlier runs quarantined as
        orphans (their UPDATE had not landed when the landing overlap let them
        wait, see qlik_ct_quarantine), as change_seq and the key read from the
        quarantined raw row: the change log pairs an UPDATE that lands later
        with its before image from here (pair_before_images), and the entry is
        then resolved (qlik_ct_quarantine_resolved). The raw row (to_json of
        the landed row) is read as a map of text values, names lowered, each
        key column converted to its configured type (text_as_type: binary from
        Base64, as to_json writes it). None when the
        change log is built from scratch (it reads every landed row, both
        halves of a change among them), no quarantine exists yet, or in a
        dbt unit test (its inputs are the fixtures). -#}
    {%- if not execute or model.resource_type == 'unit_test'
        or cdcflow.any_built_from_scratch(['qlik_ct_quarantine', cdcflow.table_model_name(cfg.name, 'changes_logged')]) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set quarantine = cdcflow.model_relation('qlik_ct_quarantine') -%}
    {%- set sql -%}
    select
        change_seq,
        {%- for column in cfg.key %}
        {{ cdcflow.text_as_type("landed['" ~ column | lower ~ "']", cfg.columns[column]) }} as {{ column }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    from (
        select
            change_seq,
            {{ cdcflow.lowered_map_keys("from_json(raw_row, 'map<string, string>')") }} as landed
        from {{ quarantine }}
        where
            source_table = '{{ cfg.name }}'
            and raw_table = '{{ cfg.change_table }}'
            and reason = '{{ cdcflow.orphan_before_image_reason() }}'
            and loaded_at < {{ cdcflow.run_loaded_at() }}
    ) as quarantined
    {%- endset -%}
    {{ return(sql) }}
{% endmacro %}
