{{ cdcflow.qlik_ct_change_log('customers') }}
