{{ cdcflow.stg_qlik_kafka_messages('products') }}
