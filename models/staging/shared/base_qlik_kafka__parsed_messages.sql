{{ cdcflow.base_qlik_kafka_parsed_messages() }}
