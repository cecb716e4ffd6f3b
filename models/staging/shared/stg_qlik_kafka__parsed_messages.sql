{{ cdcflow.stg_qlik_kafka_parsed_messages() }}
