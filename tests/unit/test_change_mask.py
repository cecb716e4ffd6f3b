"""Table-driven and property tests for udfs.change_mask (reference 001 / 000)."""

import random

import pytest

from udfs.change_mask import MAX_MASK_BYTES, change_mask_fits, changed_columns, set_bits

CT_COLUMNS = ["customer_id", "first_name", "last_name", "email"]  # bits 7..10 behind 7 headers


@pytest.mark.parametrize(
    ("mask_hex", "columns", "first_bit", "expected"),
    [
        # reference 000 worked example: 0B = 1011 -> ordinals 1, 2, 4 (bit 0 <-> ordinal 1)
        ("0B", ["o1", "o2", "o3", "o4"], 0, ["o1", "o2", "o4"]),
        # reference 001: 5 header columns take bits 0-4, first data column is bit 5
        ("20", ["d1", "d2"], 5, ["d1"]),
        ("1F", ["d1", "d2"], 5, []),  # header bits only
        # __ct with 7 header columns: INSERT sets every data column
        ("8007", CT_COLUMNS, 7, CT_COLUMNS),
        # DELETE sets the key only; trailing zero byte omitted (trimmed) or kept
        ("80", CT_COLUMNS, 7, ["customer_id"]),
        ("8000", CT_COLUMNS, 7, ["customer_id"]),
        ("800000000000", CT_COLUMNS, 7, ["customer_id"]),
        # UPDATE of email only: bit 10 = byte 1, bit 2
        ("0004", CT_COLUMNS, 7, ["email"]),
        # BEFOREIMAGE: empty mask
        ("", CT_COLUMNS, 7, []),
        # byte 0 is bits 7..0: bit 7 of byte 0 is the first data column, not bit 0
        ("01", CT_COLUMNS, 7, []),
    ],
)
def test_changed_columns(mask_hex, columns, first_bit, expected):
    assert changed_columns(bytes.fromhex(mask_hex), columns, first_bit) == expected


@pytest.mark.parametrize("bit", range(0, 64))
def test_single_bit(bit):
    mask = (1 << bit).to_bytes(bit // 8 + 1, "little")
    columns = [f"c{i}" for i in range(64)]
    assert set_bits(mask) == [bit]
    assert changed_columns(mask, columns) == [f"c{bit}"]


def test_null_mask_is_null():
    assert changed_columns(None, CT_COLUMNS, 7) is None
    assert change_mask_fits(None, 11) is None
    assert set_bits(None) == []
    # a width unknown for the row (Qlik Kafka: no metadata message in effect)
    assert change_mask_fits(b"\x01", None) is None


def test_negative_first_bit_is_rejected():
    with pytest.raises(ValueError, match="first_bit must be >= 0"):
        changed_columns(b"\x01", ["a"], -1)


@pytest.mark.parametrize(
    ("mask_hex", "width", "fits"),
    [
        ("8007", 11, True),
        ("0F", 4, True),
        ("1F", 4, False),  # bit 4 is past a 4-column table
        ("8008", 11, False),  # bit 11 set, table has bits 0..10
        ("800700000000", 11, True),  # untrimmed: trailing zero bytes are fine
        ("000000000001", 11, False),
        ("", 11, True),
    ],
)
def test_change_mask_fits(mask_hex, width, fits):
    assert change_mask_fits(bytes.fromhex(mask_hex), width) is fits


def test_mask_longer_than_varbinary_128_does_not_fit():
    assert change_mask_fits(bytes(MAX_MASK_BYTES), 8) is True
    assert change_mask_fits(bytes(MAX_MASK_BYTES + 1), 8) is False


def _encode(bits: set[int], length: int) -> bytes:
    """Inverse of set_bits: little-endian bitmask of ``length`` bytes."""
    return sum(1 << b for b in bits).to_bytes(length, "little")


@pytest.mark.parametrize("seed", range(20))
def test_encode_decode_round_trip_trimmed_and_untrimmed(seed):
    rng = random.Random(seed)
    for length in range(1, MAX_MASK_BYTES + 1):
        bits = {b for b in range(length * 8) if rng.random() < 0.3}
        untrimmed = _encode(bits, length)
        trimmed = untrimmed.rstrip(b"\x00")
        assert set_bits(untrimmed) == sorted(bits)
        assert set_bits(trimmed) == sorted(bits)
        columns = [f"c{i}" for i in range(length * 8)]
        first_bit = rng.randrange(0, 8)
        expected = [f"c{b - first_bit}" for b in sorted(bits) if b >= first_bit]
        expected = [c for c in expected if int(c[1:]) < len(columns)]
        assert changed_columns(untrimmed, columns, first_bit) == expected
        assert changed_columns(trimmed, columns, first_bit) == expected
