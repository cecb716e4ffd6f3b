{{ cdcflow.qlik_kafka_quarantine() }}
