{{ cdcflow.qlik_ct_quarantine() }}
