{{ cdcflow.history_view('sqlserver_orders') }}
