{{ cdcflow.scd1_current('emp') }}
