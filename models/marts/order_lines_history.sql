{{ cdcflow.history_view('order_lines') }}
