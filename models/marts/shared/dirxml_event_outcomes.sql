{{ cdcflow.dirxml_event_outcomes() }}
