{{ cdcflow.message_quarantine('debezium') }}
