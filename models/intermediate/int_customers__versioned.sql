{{ cdcflow.versioned_model('customers') }}
