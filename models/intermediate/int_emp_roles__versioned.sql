{{ cdcflow.versioned_model('emp_roles') }}
