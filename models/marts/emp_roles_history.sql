{{ cdcflow.history_view('emp_roles') }}
