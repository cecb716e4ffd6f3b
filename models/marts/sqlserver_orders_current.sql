{{ cdcflow.scd1_current('sqlserver_orders') }}
