{{ cdcflow.stg_debezium_parsed_events() }}
