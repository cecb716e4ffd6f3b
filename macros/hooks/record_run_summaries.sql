{% macro record_run_summaries(relations, groups, nothing_new=[], latest=none) %}
    {#- on-run-end, after the states: what this run did for each CDC group in it,
        appended to the run summaries (relations.runs) and logged (dbt prints it
        at the end of the run, `cdcflow run` in its summary). The figures count
        from the group's last run that ended TFEND (everything after a full
        refresh), so a run that redoes a failed one reports what the failed one
        logged too: the changes logged, the versions they opened (every change
        but a delete), the versions whose validity ended (those open before plus
        those opened, less those open now), the rows of <table>_current, and the
        rows quarantined, with the query that shows them. Runs that logged
        nothing keep the last count of <table>_current (it is counted, for a
        group that ended TFEND, in the same query as the changes, one round of
        jobs, and used where the run logged some). A group in `nothing_new`
        (record_groups_with_nothing_new) says so on a line of its own; its
        figures are known without a query (its last run ended TFEND, and this
        one logged nothing). `latest`: each group's state now, if the caller
        has it (else read from the state table). -#}
    {%- set loaded_at = cdcflow.run_loaded_at() -%}
    {%- set latest = latest if latest is not none else cdcflow.latest_cdc_states(relations) -%}
    {%- set previous = {} -%}
    {%- if not flags.FULL_REFRESH -%}
        {%- set last_ended -%}
            select name, date_format(loaded_at, 'yyyy-MM-dd HH:mm:ss.SSSSSS') as loaded_at, current_versions
            from (
                select *, row_number() over (partition by name order by loaded_at desc) as recency
                from {{ relations.runs }}
                where state_name = 'TFEND' and loaded_at < {{ loaded_at }}
            ) as ended
            where recency = 1
        {%- endset -%}
        {%- for row in run_query(last_ended) -%}
            {%- do previous.update({row['name']: row}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set counts = [] -%}
    {%- set since_of = {} -%}
    {%- set quarantine_of = {} -%}
    {%- set figures = {} -%}
    {%- for table_name in groups -%}
        {%- set cfg = cdcflow.table_config(table_name) -%}
        {%- set since = "timestamp'" ~ previous[table_name]['loaded_at'] ~ "'" if table_name in previous
            else "timestamp'0001-01-01 00:00:00'" -%}
        {%- set change_log = cdcflow.model_relation(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
        {%- set quarantine = cdcflow.model_relation(cdcflow.source_format(cfg.format).quarantine) -%}
        {%- do since_of.update({table_name: since}) -%}
        {%- do quarantine_of.update({table_name: quarantine}) -%}
        {%- set quarantined = 'select count(*) as rows_quarantined from ' ~ quarantine ~ ' where source_table = '
            ~ cdcflow.sql_string(table_name) ~ ' and loaded_at > ' ~ since if quarantine is not none
            else 'select cast(0 as bigint) as rows_quarantined' -%}
        {%- set logged = "select count(*) as changes_logged, count_if(operation <> 'D') as versions_opened from "
            ~ change_log ~ ' where loaded_at > ' ~ since if change_log is not none
            else 'select cast(0 as bigint) as changes_logged, cast(0 as bigint) as versions_opened' -%}
        {#- <table>_current is read only where the run ended TFEND -#}
        {%- set current = cdcflow.model_relation(cdcflow.table_model_name(table_name, 'current'))
            if latest[table_name]['state_name'] == 'TFEND' else none -%}
        {%- set current_versions = 'select count(*) as current_versions from ' ~ current if current is not none
            else 'select cast(null as bigint) as current_versions' -%}
        {%- if table_name in nothing_new and table_name in previous -%}
            {%- do figures.update({table_name: {'changes_logged': 0, 'versions_opened': 0, 'rows_quarantined': 0}}) -%}
        {%- else -%}
            {%- do counts.append('select ' ~ cdcflow.sql_string(table_name)
                ~ ' as name, logged.*, quarantined.*, current_versions.* from (' ~ logged ~ ') as logged cross join ('
                ~ quarantined ~ ') as quarantined cross join (' ~ current_versions ~ ') as current_versions') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for row in (run_query(counts | join('\nunion all\n')) if counts else []) -%}
        {%- do figures.update({row['name']: {
            'changes_logged': row['changes_logged'] | int, 'versions_opened': row['versions_opened'] | int,
            'rows_quarantined': row['rows_quarantined'] | int}}) -%}
        {%- if row['current_versions'] is not none -%}
            {%- do figures[row['name']].update({'current_versions': row['current_versions'] | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- where the run ended TFEND and logged nothing, the last count (none counted: nothing new) -#}
    {%- for table_name in groups if latest[table_name]['state_name'] == 'TFEND' -%}
        {%- set before = previous[table_name]['current_versions'] if table_name in previous else none -%}
        {%- if figures[table_name].changes_logged == 0 and before is not none -%}
            {%- do figures[table_name].update({'current_versions': before | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set rows = [] -%}
    {%- set lines = [
        'cdcflow: what this run did, per table (counted from its last run that ended TFEND; every run: select * from '
        ~ relations.runs ~ ')',
    ] -%}
    {#- the cause of a failed group first: the lines of dbt's output before it are its consequences -#}
    {%- for table_name in groups if latest[table_name]['state_name'] == 'ERROR' -%}
        {%- do lines.append('  FAILED ' ~ table_name ~ ': ' ~ latest[table_name]['error_text']) -%}
    {%- endfor -%}
    {%- do lines.append('  ' ~ 'table' ~ ' ' * 26 ~ 'state       changes   opened   closed  current  quarantined') -%}
    {%- for table_name in groups -%}
        {%- set figure = figures[table_name] -%}
        {%- set state = latest[table_name] -%}
        {%- set current = figure.get('current_versions') -%}
        {%- set before = (previous[table_name]['current_versions'] if table_name in previous else 0) or 0 -%}
        {%- set closed = (before | int) + figure.versions_opened - current if current is not none else none -%}
        {%- do rows.append([
            cdcflow.sql_string(table_name), cdcflow.sql_string(invocation_id), loaded_at,
            cdcflow.sql_string(state['state_name']), cdcflow.sql_string(state['error_text']),
            figure.changes_logged | string, figure.versions_opened | string,
            'cast(null as bigint)' if closed is none else closed | string,
            'cast(null as bigint)' if current is none else current | string,
            figure.rows_quarantined | string,
            cdcflow.sql_string(quarantine_of[table_name] | string if quarantine_of[table_name] is not none else none),
        ]) -%}
        {%- do lines.append('  ' ~ '%-30s %-8s %10d %8d %8s %8s %12d' | format(
            table_name, state['state_name'], figure.changes_logged, figure.versions_opened,
            '-' if closed is none else closed, '-' if current is none else current, figure.rows_quarantined)) -%}
        {%- if table_name in nothing_new and state['state_name'] != 'ERROR' -%}
            {%- do lines.append('      nothing new: nothing landed since its last run; its models and tests did no work') -%}
        {%- endif -%}
        {%- if figure.rows_quarantined > 0 -%}
            {%- do lines.append('      ' ~ figure.rows_quarantined ~ (' row' if figure.rows_quarantined == 1 else ' rows')
                ~ ' quarantined: select * from ' ~ quarantine_of[table_name] ~ ' where source_table = '
                ~ cdcflow.sql_string(table_name)
                ~ (' and loaded_at > ' ~ since_of[table_name] if table_name in previous else '')) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set columns = [
        'name', 'invocation_id', 'loaded_at', 'state_name', 'error_text', 'changes_logged', 'versions_opened',
        'versions_closed', 'current_versions', 'rows_quarantined', 'quarantine'] -%}
    {%- call statement('cdcflow_record_run_summaries') -%}
        insert into {{ relations.runs }}
        select /*+ COALESCE(1) */ {{ columns | join(', ') }}
        from {{ cdcflow.values_table(rows, 'summary', columns) }}
    {%- endcall -%}
    {%- do log(lines | join('\n'), info=true) -%}
{% endmacro %}
