{{ cdcflow.qlik_kafka_table_versions() }}
