{{ cdcflow.stg_dirxml_events('emp') }}
