{% macro format_registry() %}
    {#- Generated from launcher/format_registry.py (python -m launcher.format_registry --write):
        the source formats and the models a configured table has, by role and layer.
        Edit that file, not this one. -#}
    {{ return(fromjson('{
    "format_names": [
        "qlik_ct",
        "qlik_kafka",
        "debezium",
        "dirxml"
    ],
    "formats": {
        "debezium": {
            "may_omit_columns": true,
            "quarantine": "debezium_quarantine",
            "raw_table_defaults": {
                "raw_table": "debezium_events"
            },
            "raw_table_settings": [
                "raw_table"
            ],
            "relogs_changes": false,
            "relogs_other_operation": false,
            "roles": {
                "events": "staging"
            }
        },
        "dirxml": {
            "may_omit_columns": true,
            "quarantine": "dirxml_quarantine",
            "raw_table_defaults": {
                "raw_table": "dirxml_event_log"
            },
            "raw_table_settings": [
                "raw_table"
            ],
            "relogs_changes": true,
            "relogs_other_operation": false,
            "roles": {
                "events": "staging",
                "events_decided": "intermediate"
            }
        },
        "qlik_ct": {
            "may_omit_columns": false,
            "quarantine": "qlik_ct_quarantine",
            "raw_table_defaults": {
                "change_table": "{table}__ct"
            },
            "raw_table_settings": [
                "change_table",
                "full_load_table"
            ],
            "relogs_changes": true,
            "relogs_other_operation": true,
            "roles": {
                "before_images_waiting": "intermediate",
                "changes": "staging",
                "full_load": "staging"
            }
        },
        "qlik_kafka": {
            "may_omit_columns": true,
            "quarantine": "qlik_kafka_quarantine",
            "raw_table_defaults": {
                "raw_table": "qlik_kafka_messages"
            },
            "raw_table_settings": [
                "raw_table"
            ],
            "relogs_changes": false,
            "relogs_other_operation": false,
            "roles": {
                "messages": "staging",
                "messages_decoded": "intermediate"
            }
        }
    },
    "layer_patterns": {
        "intermediate": "int_{table}__{role}",
        "marts": "{table}_{role}",
        "staging": "stg_{format}__{table}_{role}"
    },
    "table_roles": {
        "changes_logged": "intermediate",
        "current": "marts",
        "history": "marts",
        "versioned": "intermediate"
    }
}')) }}
{% endmacro %}
