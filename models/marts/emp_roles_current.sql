{{ cdcflow.scd1_current('emp_roles') }}
