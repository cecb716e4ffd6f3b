{{ cdcflow.stg_dirxml_events('emp_roles') }}
