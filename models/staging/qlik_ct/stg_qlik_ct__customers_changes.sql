{{ cdcflow.stg_qlik_ct_changes('customers') }}
