{{ cdcflow.debezium_quarantine() }}
