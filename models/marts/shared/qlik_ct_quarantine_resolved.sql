{{ cdcflow.qlik_ct_quarantine_resolved() }}
