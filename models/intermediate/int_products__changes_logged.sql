{{ cdcflow.qlik_kafka_change_log('products') }}
