{{ cdcflow.scd1_current('order_lines') }}
