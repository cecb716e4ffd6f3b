"""The `table_key` column of a DirXML JDBC event-log table (reference 003).

Grammar (the driver's documentation gives it as BNF)::

    <table-key>             ::= <unique-row-identifier> { "+" <unique-row-identifier> }
    <unique-row-identifier> ::= <primary-key-column-name> "=" <value>

A value containing any of ``, ; ' + " = \\ < >`` is delimited with double quotes;
inside the quotes a double quote is written ``\\"`` and a backslash ``\\\\``.
Formatting is exact: ``empno=1`` and ``empno= 1`` are different texts (the
value is kept verbatim, spaces included).
"""

from __future__ import annotations

SPECIAL_CHARACTERS = ",;'+\"=\\<>"


class MalformedTableKey(ValueError):
    """A table_key that does not follow the grammar; the message says where."""


def parse_table_key(text: str | None) -> list[tuple[str, str]]:
    """The (column name, value) pairs of ``text``, in order.

    Raises :class:`MalformedTableKey` for an empty key, a pair without ``=``, an
    empty column name, a column named twice (names are compared
    case-insensitively, as SQL does), an unquoted value with a special
    character, an unterminated quote, an escape other than ``\\"`` / ``\\\\``,
    or text after a closing quote.
    """
    if text is None or text == "":
        raise MalformedTableKey("table_key is empty")
    pairs: list[tuple[str, str]] = []
    position = 0
    length = len(text)
    while True:
        equals = text.find("=", position)
        if equals < 0:
            raise MalformedTableKey(f"no '=' after column name {text[position:]!r} (at {position})")
        name = text[position:equals]
        if name == "":
            raise MalformedTableKey(f"empty column name at {position}")
        bad = [c for c in name if c in SPECIAL_CHARACTERS]
        if bad:
            raise MalformedTableKey(f"column name {name!r} contains {bad[0]!r}")
        if any(existing.lower() == name.lower() for existing, _ in pairs):
            raise MalformedTableKey(f"column {name!r} is named twice")
        position = equals + 1
        if position < length and text[position] == '"':
            value, position = _quoted_value(text, position)
        else:
            end = text.find("+", position)
            end = length if end < 0 else end
            value = text[position:end]
            bad = [c for c in value if c in SPECIAL_CHARACTERS]
            if bad:
                raise MalformedTableKey(
                    f"value {value!r} of column {name!r} contains {bad[0]!r}: it must be delimited "
                    "with double quotes"
                )
            position = end
        pairs.append((name, value))
        if position == length:
            return pairs
        # text[position] is '+' here (an unquoted value stops at it, a quoted one is checked)
        position += 1
        if position == length:
            raise MalformedTableKey("table_key ends with '+'")


def _quoted_value(text: str, start: int) -> tuple[str, int]:
    """The value of the quoted string opening at ``start``, and the position after it."""
    value = []
    position = start + 1
    while position < len(text):
        character = text[position]
        if character == "\\":
            escaped = text[position + 1 : position + 2]
            if escaped not in ('"', "\\"):
                raise MalformedTableKey(
                    f"invalid escape '\\{escaped}' at {position} (only \\\" and \\\\ are allowed)"
                )
            value.append(escaped)
            position += 2
        elif character == '"':
            position += 1
            if position < len(text) and text[position] != "+":
                raise MalformedTableKey(f"unexpected {text[position]!r} after closing quote at {position}")
            return "".join(value), position
        else:
            value.append(character)
            position += 1
    raise MalformedTableKey(f"unterminated quoted value starting at {start}")


def format_table_key(pairs: list[tuple[str, str]]) -> str:
    """``pairs`` as the triggers must write them (the inverse of :func:`parse_table_key`)."""
    if not pairs:
        raise ValueError("a table_key needs at least one column")
    parts = []
    for name, value in pairs:
        if any(c in SPECIAL_CHARACTERS for c in value):
            value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(f"{name}={value}")
    return "+".join(parts)


def table_key_struct(text: str | None) -> dict | None:
    """For the Spark UDF: ``{"pairs": [{"name", "value"}, ...], "error": None}``, or
    ``{"pairs": None, "error": message}`` when ``text`` is malformed; None for None
    (the staging passes null where Spark SQL parsed the key, and ``''`` for a null
    table_key, which is malformed: "table_key is empty")."""
    if text is None:
        return None
    try:
        pairs = parse_table_key(text)
    except MalformedTableKey as error:
        return {"pairs": None, "error": str(error)}
    return {"pairs": [{"name": name, "value": value} for name, value in pairs], "error": None}
