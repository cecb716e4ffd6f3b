{{ cdcflow.message_quarantine('qlik_kafka') }}
