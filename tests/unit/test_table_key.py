"""udfs.table_key: the DirXML event-log table_key (reference 003 and the driver's BNF)."""

import random

import pytest

from udfs.table_key import (
    SPECIAL_CHARACTERS,
    MalformedTableKey,
    format_table_key,
    parse_table_key,
    table_key_struct,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("empno=1", [("empno", "1")]),  # the reference's walk-through
        ("pk_empno=1", [("pk_empno", "1")]),  # a direct driver's view key
        ("idu=1", [("idu", "1")]),
        ("pkey1=value1+pkey2=value2", [("pkey1", "value1"), ("pkey2", "value2")]),
        ("a=1+b=2+c=3", [("a", "1"), ("b", "2"), ("c", "3")]),
        # the driver documentation's example: every special character, quoted and escaped
        ('pkey=", ; \' + \\" = \\\\ < >"', [("pkey", ", ; ' + \" = \\ < >")]),
        ('empno=1+role="sales, \\"north\\"+east"', [("empno", "1"), ("role", 'sales, "north"+east')]),
        ('name="O\'Brien"+n=2', [("name", "O'Brien"), ("n", "2")]),
        ('a=""', [("a", "")]),  # an empty quoted value
        ("a=", [("a", "")]),
        ("a=+b=2", [("a", ""), ("b", "2")]),
        # formatting is exact: spaces are part of the value (and of the name)
        ("empno= 1", [("empno", " 1")]),
        ("empno =1", [("empno ", "1")]),
        ('a=" padded "', [("a", " padded ")]),
        ("EMPNO=1", [("EMPNO", "1")]),  # names keep their case; the SQL matches them case-insensitively
        ("mail=ada@example.org", [("mail", "ada@example.org")]),
        ("path=/x/y:z", [("path", "/x/y:z")]),
        ("u=été 東京", [("u", "été 東京")]),
    ],
)
def test_parses(text, expected):
    assert parse_table_key(text) == expected


@pytest.mark.parametrize("character", list(SPECIAL_CHARACTERS))
def test_each_special_character_must_be_quoted_and_round_trips_when_it_is(character):
    value = f"x{character}y"
    with pytest.raises(MalformedTableKey):
        parse_table_key(f"k={value}" if character != "+" else "k=x+y")
    text = format_table_key([("k", value)])
    assert text.startswith('k="') and text.endswith('"')
    assert parse_table_key(text) == [("k", value)]


def test_plus_inside_an_unquoted_value_starts_the_next_pair():
    with pytest.raises(MalformedTableKey, match="no '=' after column name 'y'"):
        parse_table_key("k=x+y")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "table_key is empty"),
        ("", "table_key is empty"),
        ("empno", "no '=' after column name 'empno' (at 0)"),
        ("empno=1+", "table_key ends with '+'"),
        ("=1", "empty column name at 0"),
        ("a=1+=2", "empty column name at 4"),
        ("a=1+a=2", "column 'a' is named twice"),
        ("empno=1+EMPNO=2", "column 'EMPNO' is named twice"),
        ("a=1,b=2", "value '1,b=2' of column 'a' contains ',': it must be delimited with double quotes"),
        ("a=x;y", "value 'x;y' of column 'a' contains ';'"),
        ("a=O'Brien", 'contains "\'"'),
        ("a=x<y", "contains '<'"),
        ("a=x>y", "contains '>'"),
        ("a=x\\y", r"value 'x\\y' of column 'a' contains '\\'"),
        ("a=1=2", "value '1=2' of column 'a' contains '='"),
        ('a=x"y', "contains '\"'"),
        ('a="open', "unterminated quoted value starting at 2"),
        ('a="trailing\\', "invalid escape"),
        ('a="bad \\n escape"', r"""invalid escape '\n' at 7 (only \" and \\ are allowed)"""),
        ('a="x"y', "unexpected 'y' after closing quote at 5"),
        ('a="x" +b=1', "unexpected ' ' after closing quote"),
        ("a b=1", None),  # a space in a name is kept (and then names no key column)
        ("a<b=1", "column name 'a<b' contains '<'"),
    ],
)
def test_malformed(text, message):
    if message is None:
        assert parse_table_key(text) == [("a b", "1")]
        return
    with pytest.raises(MalformedTableKey) as raised:
        parse_table_key(text)
    assert message in str(raised.value)


def test_format_writes_exactly_what_the_reference_shows():
    assert format_table_key([("empno", "1")]) == "empno=1"
    assert format_table_key([("pkey1", "value1"), ("pkey2", "value2")]) == "pkey1=value1+pkey2=value2"
    assert format_table_key([("pkey", ", ; ' + \" = \\ < >")]) == 'pkey=", ; \' + \\" = \\\\ < >"'
    with pytest.raises(ValueError):
        format_table_key([])


def test_round_trip_of_random_keys():
    rng = random.Random(3)
    alphabet = "ab1 _-." + SPECIAL_CHARACTERS + "é"
    for _ in range(2000):
        pairs = [
            (f"c{i}", "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))))
            for i in range(rng.randint(1, 4))
        ]
        assert parse_table_key(format_table_key(pairs)) == pairs


def test_struct_for_spark():
    assert table_key_struct("a=1+b=x") == {
        "pairs": [{"name": "a", "value": "1"}, {"name": "b", "value": "x"}],
        "error": None,
    }
    assert table_key_struct("a") == {"pairs": None, "error": "no '=' after column name 'a' (at 0)"}
    assert table_key_struct("") == {"pairs": None, "error": "table_key is empty"}
    assert table_key_struct(None) is None
