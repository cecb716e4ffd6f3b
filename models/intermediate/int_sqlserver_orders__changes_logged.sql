{{ cdcflow.debezium_change_log('sqlserver_orders') }}
