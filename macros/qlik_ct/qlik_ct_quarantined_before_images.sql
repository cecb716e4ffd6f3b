{% macro qlik_ct_quarantined_before_images(cfg) %}
    {#- The before images of table `cfg` that earlier runs found orphaned (their
        UPDATE had not landed when the landing overlap stopped letting them wait)
        and recorded in int_<table>__before_images_waiting (which the quarantine
        reports), as change_seq and the key: the change log pairs an UPDATE that
        lands later with its before image from here (pair_before_images), and
        qlik_ct_quarantine_resolved then says so. The ref is taken at parse time
        too, so dbt runs the waiting model first (built from scratch, it holds
        this run's only: none are read). A reader that reads every landed row
        gets a before image twice, once staged: pair_before_images takes each
        once. None in a dbt unit test (its inputs are the fixtures). -#}
    {%- set waiting = cdcflow.table_model_ref(cdcflow.table_model_name(cfg.name, 'before_images_waiting')) -%}
    {%- if not execute or model.resource_type == 'unit_test' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set sql -%}
    select change_seq, {{ cfg.key | join(', ') }}
    from {{ waiting }}
    where loaded_at < {{ cdcflow.run_loaded_at() }}
    {%- endset -%}
    {{ return(sql) }}
{% endmacro %}
