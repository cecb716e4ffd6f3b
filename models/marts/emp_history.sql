{{ cdcflow.history_view('emp') }}
