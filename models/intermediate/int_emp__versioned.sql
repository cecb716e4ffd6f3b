{{ cdcflow.versioned_model('emp') }}
