{{ cdcflow.scd1_current('products') }}
