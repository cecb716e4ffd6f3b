{{ cdcflow.stg_qlik_ct_changes('order_lines') }}
