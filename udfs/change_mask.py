"""Qlik change-mask decoding.

Rules (shared/reference/001, "[header__]change_mask"; 000, "changeMask"):

* The mask is a byte array in **little-endian** bit order: byte 0 holds bits
  7..0, byte 1 holds bits 15..8, and so on; bit ``N`` is ``(mask[N // 8] >>
  (N % 8)) & 1``.
* In a Replicate ``__ct`` change table, bit ``N`` is the change-table column at
  ordinal ``N`` (0-based) **counting the header columns**: with 7 header
  columns the first data column is bit 7. In a Qlik Kafka message, bit 0 is
  the column with metadata ordinal 1. Both are "the first data column sits at
  bit ``first_bit``".
* Trailing zero bytes may be omitted, so a missing byte reads as all zeros.
  The column is at most varbinary(128).
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_MASK_BYTES = 128


def set_bits(mask: bytes | None) -> list[int]:
    """Return the positions of the bits set in ``mask``, ascending.

    >>> set_bits(bytes.fromhex("0B"))
    [0, 1, 3]
    """
    if mask is None:
        return []
    return [
        byte_index * 8 + bit for byte_index, byte in enumerate(mask) for bit in range(8) if (byte >> bit) & 1
    ]


def changed_columns(mask: bytes | None, columns: Sequence[str], first_bit: int = 0) -> list[str] | None:
    """Return the names of ``columns`` whose bit is set in ``mask``.

    ``columns[i]`` is the column at bit ``first_bit + i``. Bits outside that
    range (header columns, or bits beyond the table) are ignored here; use
    :func:`change_mask_fits` to reject the latter. A null mask decodes to null.

    >>> changed_columns(bytes.fromhex("0B"), ["a", "b", "c", "d"])
    ['a', 'b', 'd']
    """
    if mask is None:
        return None
    if first_bit < 0:
        raise ValueError(f"first_bit must be >= 0, got {first_bit}")
    width = first_bit + len(columns)
    return [columns[bit - first_bit] for bit in set_bits(mask) if first_bit <= bit < width]


def change_mask_fits(mask: bytes | None, width: int | None) -> bool | None:
    """Tell whether ``mask`` sets no bit at or beyond ``width`` (the number of
    columns the mask describes, header columns included) and is at most 128
    bytes long. Trailing zero bytes beyond the width are allowed (an untrimmed
    mask). A null mask or width gives null.
    """
    if mask is None or width is None:
        return None
    if len(mask) > MAX_MASK_BYTES:
        return False
    return all(bit < width for bit in set_bits(mask))
