{{ cdcflow.dirxml_quarantine() }}
