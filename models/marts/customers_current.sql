{{ cdcflow.scd1_current('customers') }}
