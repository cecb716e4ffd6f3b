{{ cdcflow.scd1_current('sqlserver_customers') }}
