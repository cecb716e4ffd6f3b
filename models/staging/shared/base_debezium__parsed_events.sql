{{ cdcflow.base_debezium_parsed_events() }}
