{{ cdcflow.qlik_ct_change_log('order_lines') }}
