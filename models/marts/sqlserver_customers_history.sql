{{ cdcflow.history_view('sqlserver_customers') }}
