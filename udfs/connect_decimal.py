"""Kafka Connect ``Decimal`` values, as Debezium writes them in JSON (reference 002).

With ``decimal.handling.mode=precise`` (Debezium's default) a DECIMAL/NUMERIC/
MONEY column is the logical type ``org.apache.kafka.connect.data.Decimal``: the
unscaled value as big-endian two's-complement bytes, Base64-encoded in JSON, and
the scale in the field schema's ``parameters.scale``. ``io.debezium.data.
VariableScaleDecimal`` carries the same bytes with the scale beside them
(``{"scale": 2, "value": "MDk="}``). Spark SQL has no signed big-endian decoder
for arbitrary lengths, hence this function.
"""

from __future__ import annotations

import base64
import binascii
from decimal import Decimal


class MalformedDecimal(ValueError):
    """A Connect Decimal that cannot be decoded; the message says why."""


def decode_connect_decimal(encoded: str, scale: int) -> Decimal:
    """The decimal number of Base64 ``encoded`` unscaled bytes at ``scale``.

    >>> decode_connect_decimal("MDk=", 2)   # 0x3039 = 12345
    Decimal('123.45')
    >>> decode_connect_decimal("/w==", 0)   # 0xFF = -1
    Decimal('-1')
    """
    if not isinstance(encoded, str):
        raise MalformedDecimal(f"expected a Base64 string, got {type(encoded).__name__}")
    if not isinstance(scale, int) or isinstance(scale, bool):
        raise MalformedDecimal(f"scale must be an integer, got {scale!r}")
    try:
        unscaled = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise MalformedDecimal(f"{encoded!r} is not Base64 ({error})") from None
    if not unscaled:
        raise MalformedDecimal(f"{encoded!r} decodes to no bytes")
    # built from text: exact, whatever the number of digits (no context rounding)
    return Decimal(f"{int.from_bytes(unscaled, 'big', signed=True)}E{-scale}")


def connect_decimal_text(encoded: str | None, scale: int | None) -> str | None:
    """``decode_connect_decimal`` as plain decimal text (no exponent), for Spark to
    cast to the column's decimal type; None when null or not decodable."""
    if encoded is None or scale is None:
        return None
    try:
        return format(decode_connect_decimal(encoded, int(scale)), "f")
    except MalformedDecimal:
        return None
