{{ cdcflow.versioned_model('products') }}
