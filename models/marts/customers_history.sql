{{ cdcflow.history_view('customers') }}
