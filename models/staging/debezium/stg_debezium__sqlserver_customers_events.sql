{{ cdcflow.stg_debezium_events('sqlserver_customers') }}
