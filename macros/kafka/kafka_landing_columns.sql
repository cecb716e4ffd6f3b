{% macro kafka_landing_columns(relation) %}
    {#- The Kafka coordinates and payload of a raw Kafka landing table as the
        models read them, whatever type the sink wrote: {'timestamp': SQL giving
        the message timestamp as a timestamp, 'value': SQL giving the payload as
        a string}. Sinks differ: Spark's own Kafka source gives `timestamp` as a
        timestamp and `key`/`value` as binary; several Kafka Connect sinks write
        the timestamp as epoch milliseconds (bigint). Any other type stops the
        model with a message naming the table, the column, the type found and
        the types accepted. Read when the model runs (DESCRIBE); the plain
        columns at parse time and in unit tests. -#}
    {%- set read = {'timestamp': '`timestamp`', 'value': 'value'} -%}
    {%- if not execute or (model is defined and model.resource_type == 'unit_test') -%}
        {{ return(read) }}
    {%- endif -%}
    {%- set accepted = {
        'timestamp': {'timestamp': '`timestamp`', 'timestamp_ntz': 'cast(`timestamp` as timestamp)',
                      'bigint': 'timestamp_millis(`timestamp`)', 'int': 'timestamp_millis(`timestamp`)'},
        'value': {'string': 'value', 'binary': "decode(value, 'UTF-8')"},
    } -%}
    {%- set described = cdcflow.landed_columns(relation) -%}
    {%- set types = {} -%}
    {%- for column in described -%}
        {%- do types.update({column.name | lower: column.dtype | lower}) -%}
    {%- endfor -%}
    {%- if not types -%}
        {{ return(read) }}  {#- not readable now: the query names what is wrong -#}
    {%- endif -%}
    {%- for name, readers in accepted.items() -%}
        {%- if name not in types -%}
            {%- do exceptions.raise_compiler_error(
                'cdcflow: Kafka landing table ' ~ relation ~ ' has no column `' ~ name ~ '` (a Kafka sink writes'
                ~ ' topic, partition, offset, timestamp, key, value); its columns are: '
                ~ described | map(attribute='name') | join(', ')) -%}
        {%- elif types[name] not in readers -%}
            {%- do exceptions.raise_compiler_error(
                'cdcflow: Kafka landing table ' ~ relation ~ ': column `' ~ name ~ '` is ' ~ types[name]
                ~ '; accepted: ' ~ readers.keys() | join(', ')
                ~ (' (bigint, int: epoch milliseconds)' if name == 'timestamp' else ' (binary: UTF-8 text)')) -%}
        {%- endif -%}
        {%- do read.update({name: readers[types[name]]}) -%}
    {%- endfor -%}
    {{ return(read) }}
{% endmacro %}
