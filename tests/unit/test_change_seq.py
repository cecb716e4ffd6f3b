"""Tests for udfs.change_seq (reference 001, change_seq)."""

from datetime import datetime

import pytest

from udfs.change_seq import ChangeSeq, MalformedChangeSeq, parse_change_seq


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("20240105103015250000000000000000042", ChangeSeq(datetime(2024, 1, 5, 10, 30, 15, 250000), 42)),
        ("20121231235959990000000000000001001", ChangeSeq(datetime(2012, 12, 31, 23, 59, 59, 990000), 1001)),
        ("20240229000000009999999999999999999", ChangeSeq(datetime(2024, 2, 29), 9999999999999999999)),
    ],
)
def test_parse(value, expected):
    assert parse_change_seq(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "change_seq is null"),
        ("", "is not 35 digits"),
        ("2024010510301525000000000000000004", "is not 35 digits"),  # 34 digits
        ("202401051030152500000000000000000420", "is not 35 digits"),  # 36 digits
        ("2024010510301525000000000000000004x", "is not 35 digits"),
        ("20241305103015250000000000000000042", "invalid time part"),  # month 13
        ("20230229103015250000000000000000042", "invalid time part"),  # not a leap year
        ("20240105246015250000000000000000042", "invalid time part"),  # hour 24
    ],
)
def test_malformed(value, message):
    with pytest.raises(MalformedChangeSeq, match=message):
        parse_change_seq(value)


def test_string_order_is_change_order():
    earlier = "20240105103015250000000000000000042"
    later = "20240105103015250000000000000000043"
    assert earlier < later
    assert parse_change_seq(earlier).change_number < parse_change_seq(later).change_number
