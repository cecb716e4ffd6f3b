{{ cdcflow.stg_qlik_ct_full_load('customers') }}
