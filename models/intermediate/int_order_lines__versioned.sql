{{ cdcflow.versioned_model('order_lines') }}
