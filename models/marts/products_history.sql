{{ cdcflow.history_view('products') }}
