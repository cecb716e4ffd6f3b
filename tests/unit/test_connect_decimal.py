"""udfs.connect_decimal: Base64 big-endian two's-complement unscaled values."""

import base64
from decimal import Decimal

import pytest

from udfs.connect_decimal import MalformedDecimal, connect_decimal_text, decode_connect_decimal


def encode(unscaled: int) -> str:
    """What Kafka Connect writes: BigInteger.toByteArray (minimal two's complement), Base64."""
    length = (unscaled + (unscaled < 0)).bit_length() // 8 + 1
    return base64.b64encode(unscaled.to_bytes(length, "big", signed=True)).decode()


@pytest.mark.parametrize(
    ("encoded", "scale", "expected"),
    [
        ("MDk=", 2, Decimal("123.45")),  # 0x3039
        ("AA==", 2, Decimal("0.00")),
        ("AQ==", 0, Decimal("1")),
        ("/w==", 0, Decimal("-1")),  # 0xFF
        ("gA==", 0, Decimal("-128")),  # 0x80
        ("AIA=", 0, Decimal("128")),  # 0x0080: leading zero byte keeps it positive
        ("/4A=", 3, Decimal("-0.128")),  # 0xFF80
        ("z8c=", 2, Decimal("-123.45")),  # 0xCFC7
    ],
)
def test_known_encodings(encoded, scale, expected):
    value = decode_connect_decimal(encoded, scale)
    assert value == expected
    assert value.as_tuple().exponent == -scale


@pytest.mark.parametrize(
    "unscaled",
    [0, 1, -1, 127, 128, -128, -129, 255, 256, 2**63 - 1, -(2**63), 10**37 - 1, -(10**37) + 1],
)
@pytest.mark.parametrize("scale", [0, 2, 10])
def test_round_trip(unscaled, scale):
    assert decode_connect_decimal(encode(unscaled), scale) == Decimal(f"{unscaled}E{-scale}")


@pytest.mark.parametrize(
    ("encoded", "message"),
    [
        ("not base64!", "is not Base64"),
        ("MDk", "is not Base64"),  # missing padding
        ("", "decodes to no bytes"),
    ],
)
def test_malformed(encoded, message):
    with pytest.raises(MalformedDecimal, match=message):
        decode_connect_decimal(encoded, 2)


def test_scale_must_be_an_integer():
    with pytest.raises(MalformedDecimal, match="scale must be an integer"):
        decode_connect_decimal("MDk=", "2")


def test_text_form_for_spark():
    assert connect_decimal_text("MDk=", 2) == "123.45"
    assert connect_decimal_text(encode(5), -2) == "500"
    assert connect_decimal_text(encode(-(10**30)), 4) == "-100000000000000000000000000.0000"
    assert connect_decimal_text(None, 2) is None
    assert connect_decimal_text("MDk=", None) is None
    assert connect_decimal_text("%%%", 2) is None
