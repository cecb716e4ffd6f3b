{% macro qlik_kafka_hold_back_range_ends(groups, latest, ends) %}
    {#- With var cdcflow_qlik_kafka_transaction_consistency: the range of every
        qlik_kafka group in `groups` ends just before the first record of a
        transaction that has not completely landed yet (counted over every
        qlik_kafka landing table, among the rows landed since the earliest
        range start), so a run never reads part of a transaction; it is read
        whole by a later run. Updates `ends` (table -> landing micros). -#}
    {%- set kafka_groups = [] -%}
    {%- for table_name in groups if cdcflow.table_config(table_name).format == 'qlik_kafka'
        and ends[table_name] is not none -%}
        {%- do kafka_groups.append(table_name) -%}
    {%- endfor -%}
    {%- if not kafka_groups or not var('cdcflow_qlik_kafka_transaction_consistency', true) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set overlap = var('cdcflow_landing_overlap_minutes', 10) | int -%}
    {%- set starts = [] -%}
    {%- set group_ends = [] -%}
    {%- for table_name in kafka_groups -%}
        {%- set previous = latest.get(table_name) -%}
        {%- do starts.append(previous['current_start_at'] if previous and previous['current_start_at'] else none) -%}
        {%- do group_ends.append(ends[table_name]) -%}
    {%- endfor -%}
    {%- set until = group_ends | max -%}
    {%- set landed_filter = 'landed_at <= timestamp_micros(' ~ until ~ ')' -%}
    {%- if none not in starts -%}
        {%- set landed_filter = landed_filter ~ " and landed_at > timestamp'"
            ~ (starts | min).strftime('%Y-%m-%d %H:%M:%S.%f') ~ "' - interval " ~ overlap ~ " minutes" -%}
    {%- endif -%}
    {%- set held_back_from = run_query(
        'select unix_micros(min(first_landed_at)) - 1 from ('
        ~ cdcflow.qlik_kafka_incomplete_transactions(landed_filter) ~ ') as incomplete'
    ).columns[0].values()[0] -%}
    {%- if held_back_from is not none -%}
        {%- for table_name in kafka_groups if ends[table_name] > held_back_from | int -%}
            {%- do ends.update({table_name: held_back_from | int}) -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}
