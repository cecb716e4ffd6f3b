{{ cdcflow.dirxml_change_log('emp') }}
