"""Qlik Replicate ``change_seq`` parsing.

Rule (shared/reference/001, "[header__]change_seq", varchar(35)):
``YYYYMMDDHHmmSShh`` followed by a 19-digit, zero-padded change number that is
global to the task. ``hh`` is hundredths of a second. The time part is usually
the commit time of the transaction; the value is monotonic per task, so the
string itself sorts in change order. A BEFORE-IMAGE row carries the change
number of its UPDATE.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

_CHANGE_SEQ = re.compile(r"(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{19})")


class MalformedChangeSeq(ValueError):
    """Raised when a value is not a 35-digit Qlik ``change_seq``."""


@dataclass(frozen=True)
class ChangeSeq:
    """A parsed ``change_seq``: commit time (naive UTC) and change number."""

    committed_at: datetime
    change_number: int


def parse_change_seq(value: str | None) -> ChangeSeq:
    """Parse a ``change_seq`` into its timestamp and change number.

    >>> parse_change_seq("20240105103015250000000000000000042")
    ChangeSeq(committed_at=datetime.datetime(2024, 1, 5, 10, 30, 15, 250000), change_number=42)
    """
    if value is None:
        raise MalformedChangeSeq("change_seq is null")
    match = _CHANGE_SEQ.fullmatch(value)
    if match is None:
        raise MalformedChangeSeq(
            f"change_seq {value!r} is not 35 digits (YYYYMMDDHHmmSShh + 19-digit change number)"
        )
    year, month, day, hour, minute, second, hundredths, number = match.groups()
    try:
        committed_at = datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second),
            int(hundredths) * 10_000,
        )
    except ValueError as exc:
        raise MalformedChangeSeq(f"change_seq {value!r} has an invalid time part: {exc}") from exc
    return ChangeSeq(committed_at=committed_at, change_number=int(number))
