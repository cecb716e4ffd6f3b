"""How each vendor encodes what both of the kit's writers write (testkit/formats.py,
Spark SQL at the benchmark's sizes; testkit/change_history.py, Python rows for the
end-to-end tests): the Qlik `__ct` header columns and change mask, Qlik's data
types, the columns a Kafka sink lands, Debezium's Connect envelope."""

from __future__ import annotations

# the header columns of a Qlik `__ct` change table (reference 001), in order
HEADER_COLUMNS = {
    "header__change_seq": "string",
    "header__change_oper": "string",
    "header__change_mask": "binary",
    "header__stream_position": "string",
    "header__operation": "string",
    "header__transaction_id": "string",
    "header__timestamp": "timestamp",
}

# a Kafka record as a sink lands it (one row per message): Qlik Kafka's and Debezium's raw tables
KAFKA_LANDING = {
    "topic": "string",
    "partition": "int",
    "offset": "bigint",
    "timestamp": "timestamp",
    "key": "string",
    "value": "string",
}
LANDING_COLUMNS = list(KAFKA_LANDING)
# Qlik's data types of Spark types (reference 000's metadata message): (type, precision, scale)
QLIK_TYPES = {
    "int": ("INT4", 0, 0),
    "bigint": ("INT8", 0, 0),
    "string": ("STRING", 0, 0),
    "date": ("DATE", 0, 0),
    "timestamp": ("DATETIME", 0, 0),
    "double": ("REAL8", 0, 0),
    "boolean": ("BOOLEAN", 0, 0),
}


def qlik_type(data_type: str) -> tuple[str, int, int]:
    """Qlik's (type, precision, scale) of a Spark type."""
    if data_type.startswith("decimal"):
        precision, scale = data_type[len("decimal(") : -1].split(",")
        return "NUMERIC", int(precision), int(scale)
    return QLIK_TYPES[data_type]


def qlik_table_columns(columns: dict[str, str], key: list[str]) -> dict[str, dict]:
    """The tableColumns of a Qlik Kafka metadata message (reference 000) of a table
    with ``columns`` (name -> Spark type, in ordinal order) and primary key ``key``."""
    return {
        name.upper(): {
            "ordinal": ordinal,
            "type": qlik_type(data_type)[0],
            "length": 0,
            "precision": qlik_type(data_type)[1],
            "scale": qlik_type(data_type)[2],
            "primaryKeyPosition": key.index(name) + 1 if name in key else 0,
        }
        for ordinal, (name, data_type) in enumerate(columns.items(), 1)
    }


def mask_hex_sql(flags: list[str]) -> str:
    """Little-endian change mask (hex, trailing zero bytes trimmed) of the
    boolean SQL expressions ``flags`` (bit i = flags[i])."""
    byte_exprs = []
    for start in range(0, len(flags), 8):
        bits = " + ".join(
            f"case when {flag} then {1 << offset} else 0 end"
            for offset, flag in enumerate(flags[start : start + 8])
        )
        byte_exprs.append(f"({bits})")
    last_set = (
        "greatest(1, "
        + ", ".join(f"case when {expr} <> 0 then {i + 1} else 0 end" for i, expr in enumerate(byte_exprs))
        + ")"
    )
    hex_bytes = "concat(" + ", ".join(f"lpad(hex({expr}), 2, '0')" for expr in byte_exprs) + ")"
    return f"substr({hex_bytes}, 1, 2 * {last_set})"


def debezium_envelope_schema(fields: list[dict], topic: str) -> dict:
    """The Connect schema of a Debezium change event whose rows have ``fields``."""
    row_schema = {"type": "struct", "fields": fields, "optional": True, "name": f"{topic}.Value"}
    return {
        "type": "struct",
        "name": f"{topic}.Envelope",
        "optional": False,
        "fields": [
            {**row_schema, "field": "before"},
            {**row_schema, "field": "after"},
            {"type": "struct", "field": "source", "optional": False, "fields": []},
            {"type": "string", "optional": False, "field": "op"},
            {"type": "int64", "optional": True, "field": "ts_ms"},
        ],
    }
