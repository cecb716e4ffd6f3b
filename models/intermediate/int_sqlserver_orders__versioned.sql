{{ cdcflow.versioned_model('sqlserver_orders') }}
