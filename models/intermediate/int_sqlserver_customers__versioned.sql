{{ cdcflow.versioned_model('sqlserver_customers') }}
