"""udfs.cdc_state: the SSIS CDC state string and state machine (reference 004)."""

import re
from datetime import datetime

import pytest

from udfs.cdc_state import (
    INITIAL,
    STATES,
    CdcState,
    IllegalTransition,
    MalformedState,
    begin_run,
    begin_run_rows,
    end_run,
    end_run_rows,
    format_state,
    format_timestamp,
    get_processing_range,
    lsn_from_micros,
    mark_error,
    mark_initial_load_end,
    mark_initial_load_start,
    mark_processed_range,
    micros_from_lsn,
    parse_state,
)

# every example of the reference, byte for byte
REFERENCE_EXAMPLES = {
    "ILSTART/IR/0x0000162B158700000000//TS/2011-08-07T17:10:43.0031645/": CdcState(
        "ILSTART",
        initial_start="0x0000162B158700000000",
        initial_end="",
        timestamp="2011-08-07T17:10:43.0031645",
    ),
    "TFEND/CS/0x0000025B000001BC0003/TS/2011-07-17T12:05:58.1001145/": CdcState(
        "TFEND", current_start="0x0000025B000001BC0003", timestamp="2011-07-17T12:05:58.1001145"
    ),
    "TFSTART/CS/0x0000030D000000AE0003/CE/0x0000159D1E0F01000000/TS/2011-08-09T05:30:43.9344900/": CdcState(
        "TFSTART",
        current_start="0x0000030D000000AE0003",
        current_end="0x0000159D1E0F01000000",
        timestamp="2011-08-09T05:30:43.9344900",
    ),
    "TFREDO/CS/0x0000030D000000AE0003/CE/0x0000159D1E0F01000000/TS/2011-08-09T05:30:59.5544900/": CdcState(
        "TFREDO",
        current_start="0x0000030D000000AE0003",
        current_end="0x0000159D1E0F01000000",
        timestamp="2011-08-09T05:30:59.5544900",
    ),
}
NOW = datetime(2026, 11, 21, 10, 0, 0, 123456)
LATER = datetime(2026, 11, 21, 11, 0, 0)


@pytest.mark.parametrize(("text", "state"), list(REFERENCE_EXAMPLES.items()))
def test_reference_examples_round_trip(text, state):
    assert parse_state(text) == state
    assert format_state(state) == text


def test_every_part_round_trips():
    text = (
        "ERROR/CS/0x01/CE/0x0000000000000000FFFF/IR/0x00/0x02/TS/2026-11-21T10:00:00.1234560/"
        "ER/Runtime Error in model int_x: path /a/b not found"
    )
    state = parse_state(text)
    assert (state.name, state.current_start, state.current_end) == ("ERROR", "0x01", "0x0000000000000000FFFF")
    assert (state.initial_start, state.initial_end) == ("0x00", "0x02")
    assert state.error == "Runtime Error in model int_x: path /a/b not found"  # ER is last: '/' allowed
    assert format_state(state) == text


def test_initial_is_the_empty_state():
    assert parse_state("") == parse_state(None) == CdcState() == CdcState(INITIAL)
    assert format_state(CdcState()) == ""


def test_typed_parts():
    state = parse_state("TFEND/CS/0x0000025B000001BC0003/TS/2011-07-17T12:05:58.1001145/")
    assert state.updated_at == datetime(2011, 7, 17, 12, 5, 58, 100114)
    assert not state.reprocessing
    assert parse_state(next(t for t in REFERENCE_EXAMPLES if t.startswith("TFREDO"))).reprocessing
    assert format_timestamp(NOW) == "2026-11-21T10:00:00.1234560"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("TFEND", "ends with '/'"),
        ("NOPE/CS/0x01/TS/2011-07-17T12:05:58.1001145/", "unknown state 'NOPE'"),
        ("(INITIAL)/TS/2011-07-17T12:05:58/", "unknown state '(INITIAL)'"),
        ("TFEND/CS/0x01/", "no TS part"),
        ("TFEND/CS/01/TS/2011-07-17T12:05:58.1001145/", "CS '01' is not an LSN"),
        ("TFEND/CS/0x123456789012345678901/TS/2011-07-17T12:05:58/", "is not an LSN"),
        ("TFEND/CS/0xZZ/TS/2011-07-17T12:05:58/", "CS '0xZZ' is not an LSN"),
        ("TFEND/CS/0x01/TS/yesterday/", "TS 'yesterday' is not a timestamp"),
        ("TFEND/TS/2011-07-17T12:05:58/CS/0x01/", "unexpected 'CS' after 'TFEND/TS/2011-07-17T12:05:58'"),
        ("TFEND/CS/0x01/CS/0x02/TS/2011-07-17T12:05:58/", "unexpected 'CS'"),
        ("TFEND/CS/0x01/XX/0x02/TS/2011-07-17T12:05:58/", "unexpected 'XX'"),
        ("ILSTART/IR/0x01/", "IR needs a start and an end LSN"),
        ("TFEND/CS/", "CS has no value"),
    ],
)
def test_malformed_state_strings(text, message):
    with pytest.raises(MalformedState) as raised:
        parse_state(text)
    assert message in str(raised.value)


def test_the_whole_life_of_a_cdc_group():
    state = CdcState()
    state = mark_initial_load_start(state, "0x10", NOW)
    assert format_state(state) == "ILSTART/IR/0x10//TS/2026-11-21T10:00:00.1234560/"
    state = mark_initial_load_end(state, "0x20", NOW)
    assert format_state(state) == "ILEND/CS/0x10/IR/0x10/0x20/TS/2026-11-21T10:00:00.1234560/"
    state = get_processing_range(state, "0x30", NOW)
    assert format_state(state) == "ILUPDATE/CS/0x10/CE/0x30/IR/0x10/0x20/TS/2026-11-21T10:00:00.1234560/"
    assert state.reprocessing  # the initial range: rows may already be on the target
    state = mark_processed_range(state, NOW)
    assert format_state(state) == "TFEND/CS/0x30/TS/2026-11-21T10:00:00.1234560/"
    state = get_processing_range(state, "0x40", NOW)
    assert format_state(state) == "TFSTART/CS/0x30/CE/0x40/TS/2026-11-21T10:00:00.1234560/"
    assert not state.reprocessing
    # the run dies: the next one finds TFSTART and takes the range again, up to what
    # has landed since (a redo leaves the group current)
    state = get_processing_range(state, "0x50", LATER)
    assert format_state(state) == "TFREDO/CS/0x30/CE/0x50/TS/2026-11-21T11:00:00.0000000/"
    assert state.reprocessing
    state = mark_error(state, "Database Error in model int_x__versioned (models/x.sql)\n  disk full", LATER)
    assert format_state(state) == (
        "ERROR/CS/0x30/CE/0x50/TS/2026-11-21T11:00:00.0000000/"
        "ER/Database Error in model int_x__versioned (models/x.sql) disk full"
    )
    state = get_processing_range(state, "0x60", LATER)  # the next run retries the range and more
    assert format_state(state) == "TFREDO/CS/0x30/CE/0x60/TS/2026-11-21T11:00:00.0000000/"
    state = get_processing_range(state, "0x58", LATER)  # a landing end never shrinks a range
    assert format_state(state) == "TFREDO/CS/0x30/CE/0x60/TS/2026-11-21T11:00:00.0000000/"
    state = mark_processed_range(state, LATER)
    assert format_state(state) == "TFEND/CS/0x60/TS/2026-11-21T11:00:00.0000000/"


def test_a_group_without_initial_load_starts_at_the_beginning():
    state = get_processing_range(CdcState(), "0x40", NOW)
    assert (state.name, state.current_start, state.current_end) == (
        "TFSTART",
        "0x00000000000000000000",
        "0x40",
    )


def test_an_interrupted_initial_range_is_taken_again():
    state = get_processing_range(
        mark_initial_load_end(mark_initial_load_start(CdcState(), "0x1", NOW), "0x2", NOW), "0x3", NOW
    )
    # taken again with what landed since (the end of a range is always the maximum)
    again = get_processing_range(state, "0x9", LATER)
    assert (again.name, again.current_start, again.current_end) == ("ILUPDATE", "0x1", "0x9")
    # nothing landed since: the same range
    assert get_processing_range(state, "0x2", LATER).current_end == "0x3"


def test_an_interrupted_initial_load_starts_again():
    state = mark_initial_load_start(CdcState(), "0x1", NOW)
    assert mark_initial_load_start(state, "0x5", LATER).initial_start == "0x5"
    failed = mark_error(state, "boom", NOW)
    assert mark_initial_load_start(failed, "0x6", LATER).name == "ILSTART"
    with pytest.raises(IllegalTransition, match="before the initial load ended"):
        get_processing_range(failed, "0x9", LATER)


def test_error_text_is_short_and_one_line():
    state = mark_error(get_processing_range(CdcState(), "0x1", NOW), "x" * 500 + "\n\ty", NOW)
    assert len(state.error) == 200 and state.error.endswith("…") and "\n" not in state.error
    assert parse_state(format_state(state)) == state


# every (state, operation) pair: legal ones give the expected state, the others raise
LEGAL = {
    "mark_initial_load_start": {INITIAL: "ILSTART", "ILSTART": "ILSTART", "ERROR": "ILSTART"},
    "mark_initial_load_end": {"ILSTART": "ILEND"},
    "get_processing_range": {
        INITIAL: "TFSTART",
        "ILEND": "ILUPDATE",
        "ILUPDATE": "ILUPDATE",
        "TFEND": "TFSTART",
        "TFSTART": "TFREDO",
        "TFREDO": "TFREDO",
        "ERROR": "TFREDO",
    },
    "mark_processed_range": {"ILUPDATE": "TFEND", "TFSTART": "TFEND", "TFREDO": "TFEND"},
    "mark_error": {s: "ERROR" for s in STATES if s not in (INITIAL, "TFEND")},
}
SAMPLE = {
    INITIAL: CdcState(),
    "ILSTART": CdcState("ILSTART", initial_start="0x1", initial_end="", timestamp="2026-11-21T10:00:00"),
    "ILEND": CdcState(
        "ILEND", current_start="0x1", initial_start="0x1", initial_end="0x2", timestamp="2026-11-21T10:00:00"
    ),
    "ILUPDATE": CdcState(
        "ILUPDATE",
        current_start="0x1",
        current_end="0x3",
        initial_start="0x1",
        initial_end="0x2",
        timestamp="2026-11-21T10:00:00",
    ),
    "TFSTART": CdcState("TFSTART", current_start="0x3", current_end="0x4", timestamp="2026-11-21T10:00:00"),
    "TFEND": CdcState("TFEND", current_start="0x4", timestamp="2026-11-21T10:00:00"),
    "TFREDO": CdcState("TFREDO", current_start="0x3", current_end="0x4", timestamp="2026-11-21T10:00:00"),
    "ERROR": CdcState("ERROR", current_end="0x4", timestamp="2026-11-21T10:00:00", error="x"),
}
OPERATIONS = {
    "mark_initial_load_start": lambda s: mark_initial_load_start(s, "0x9", NOW),
    "mark_initial_load_end": lambda s: mark_initial_load_end(s, "0x9", NOW),
    "get_processing_range": lambda s: get_processing_range(s, "0x9", NOW),
    "mark_processed_range": lambda s: mark_processed_range(s, NOW),
    "mark_error": lambda s: mark_error(s, "failed", NOW),
}


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("state", STATES)
def test_every_transition(state, operation):
    expected = LEGAL[operation].get(state)
    if expected is None:
        with pytest.raises(IllegalTransition, match=re.escape(f"not allowed in state {state}")):
            OPERATIONS[operation](SAMPLE[state])
        return
    result = OPERATIONS[operation](SAMPLE[state])
    assert result.name == expected
    assert parse_state(format_state(result)) == result  # every reachable state has a valid string


def test_landing_positions_as_lsns():
    assert lsn_from_micros(0) == "0x00000000000000000000"
    assert (
        lsn_from_micros(1_763_718_000_123_456)
        == "0x0000000644258B9CA940"[:2] + f"{1_763_718_000_123_456:020X}"
    )
    assert micros_from_lsn(lsn_from_micros(1_763_718_000_123_456)) == 1_763_718_000_123_456
    assert len(lsn_from_micros(2**63 - 1)) == 22
    with pytest.raises(ValueError):
        lsn_from_micros(-1)
    with pytest.raises(MalformedState):
        micros_from_lsn("123")


# ------------------------------------------------------------------ dbt runs


def _names(states):
    return [state.name for state in states]


def test_a_groups_first_run_is_its_initial_load():
    recorded = begin_run(CdcState(), "0x00000000000000000040", NOW)
    assert [format_state(state) for state in recorded] == [
        "ILSTART/IR/0x00000000000000000000//TS/2026-11-21T10:00:00.1234560/",
        "ILEND/CS/0x00000000000000000000/IR/0x00000000000000000000/0x00000000000000000040"
        "/TS/2026-11-21T10:00:00.1234560/",
        "ILUPDATE/CS/0x00000000000000000000/CE/0x00000000000000000040/IR/0x00000000000000000000"
        "/0x00000000000000000040/TS/2026-11-21T10:00:00.1234560/",
    ]
    assert recorded[-1].reprocessing
    ended = end_run(recorded[-1], LATER)
    assert format_state(ended) == "TFEND/CS/0x00000000000000000040/TS/2026-11-21T11:00:00.0000000/"


def test_runs_take_ranges_and_redo_the_one_that_did_not_end():
    state = parse_state("TFEND/CS/0x0000000000000000000A/TS/2026-11-21T10:00:00.0000000/")
    [started] = begin_run(state, "0x00000000000000000014", NOW)
    assert (started.name, started.current_start, started.current_end) == (
        "TFSTART",
        "0x0000000000000000000A",
        "0x00000000000000000014",
    )
    # killed: the next run takes the range again with what landed since, in one go
    [redo] = begin_run(started, "0x0000000000000000001E", LATER)
    assert (redo.name, redo.current_start, redo.current_end, redo.reprocessing) == (
        "TFREDO",
        "0x0000000000000000000A",
        "0x0000000000000000001E",
        True,
    )
    assert end_run(redo, LATER).current_start == "0x0000000000000000001E"


def test_a_range_never_ends_before_it_starts():
    state = parse_state("TFEND/CS/0x0000000000000000000A/TS/2026-11-21T10:00:00.0000000/")
    [started] = begin_run(state, "0x00000000000000000005", NOW)  # landing files replaced by older ones
    assert started.current_start == started.current_end == "0x0000000000000000000A"


def test_a_failed_run_records_error_and_the_next_run_retries():
    [started] = begin_run(parse_state("TFEND/CS/0x1/TS/2026-11-21T10:00:00.0000000/"), "0x2", NOW)
    failed = end_run(started, NOW, error="int_customers__versioned failed: Database Error\n  disk full")
    assert format_state(failed) == (
        "ERROR/CS/0x1/CE/0x2/TS/2026-11-21T10:00:00.1234560/"
        "ER/int_customers__versioned failed: Database Error disk full"
    )
    assert _names(begin_run(failed, "0x9", LATER)) == ["TFREDO"]
    # an initial load that failed is an ILUPDATE range that failed: retried as TFREDO too
    [initial] = begin_run(CdcState(), "0x2", NOW)[-1:]
    assert _names(begin_run(end_run(initial, NOW, error="boom"), "0x3", LATER)) == ["TFREDO"]


def test_a_redo_of_an_empty_range_reads_up_to_the_new_landing_end():
    # a group whose raw table did not exist when its run started took an empty range and failed
    [started] = begin_run(parse_state("TFEND/CS/0xA/TS/2026-11-21T10:00:00.0000000/"), "0x0", NOW)
    assert started.current_start == started.current_end == "0xA"
    failed = end_run(started, NOW, error="raw table cdcflow_raw.customers__ct does not exist")
    [redo] = begin_run(failed, "0x00000000000000000020", LATER)
    assert (redo.name, redo.current_start, redo.current_end, redo.reprocessing) == (
        "TFREDO",
        "0xA",
        "0x00000000000000000020",
        True,
    )
    # the same on a first run (its initial range was empty) and after a killed one
    [initial] = begin_run(CdcState(), "0x0", NOW)[-1:]
    [redo] = begin_run(end_run(initial, NOW, error="missing"), "0x00000000000000000030", LATER)
    assert (redo.name, redo.current_end) == ("TFREDO", "0x00000000000000000030")
    [redo] = begin_run(started, "0x00000000000000000030", LATER)
    assert (redo.name, redo.current_end) == ("TFREDO", "0x00000000000000000030")
    # nothing landed since: still a range that ends where it starts
    [redo] = begin_run(failed, "0x1", LATER)
    assert (redo.current_start, redo.current_end) == ("0xA", "0xA")


def test_a_run_that_left_part_of_its_range_for_later_starts_the_next_one_there():
    [started] = begin_run(parse_state("TFEND/CS/0x10/TS/2026-11-21T10:00:00.0000000/"), "0x40", NOW)
    # a transaction whose first record landed at 0x21 is not complete yet
    assert end_run(started, LATER, processed_end="0x20").current_start == "0x00000000000000000020"
    assert end_run(started, LATER, processed_end="0x50").current_start == "0x40"  # never past CE
    assert (
        end_run(started, LATER, processed_end="0x01").current_start == "0x00000000000000000010"
    )  # nor before CS
    [row] = end_run_rows(format_state(started), None, 32, "2026-11-21 11:00:00")
    assert row["state"] == "TFEND/CS/0x00000000000000000020/TS/2026-11-21T11:00:00.0000000/"


def test_a_run_ends_only_a_range_in_progress():
    with pytest.raises(IllegalTransition, match="MarkProcessedRange is not allowed in state TFEND"):
        end_run(parse_state("TFEND/CS/0x1/TS/2026-11-21T10:00:00.0000000/"), NOW)


def test_state_table_rows():
    rows = begin_run_rows(None, 64, "2026-11-21 10:00:00.123456")
    assert [row["state_name"] for row in rows] == ["ILSTART", "ILEND", "ILUPDATE"]
    assert rows[-1] == {
        "state": "ILUPDATE/CS/0x00000000000000000000/CE/0x00000000000000000040/IR/0x00000000000000000000"
        "/0x00000000000000000040/TS/2026-11-21T10:00:00.1234560/",
        "state_name": "ILUPDATE",
        "current_start_lsn": "0x00000000000000000000",
        "current_end_lsn": "0x00000000000000000040",
        "initial_start_lsn": "0x00000000000000000000",
        "initial_end_lsn": "0x00000000000000000040",
        "updated_at": "2026-11-21 10:00:00.123456",
        "error_text": None,
        "reprocessing": True,
    }
    [ended] = end_run_rows(rows[-1]["state"], "boom", None, "2026-11-21 11:00:00")
    assert (ended["state_name"], ended["error_text"], ended["current_end_lsn"]) == (
        "ERROR",
        "boom",
        "0x00000000000000000040",
    )


def test_state_table_rows_say_why_a_transition_is_refused():
    [refused] = end_run_rows(
        "TFEND/CS/0x1/TS/2026-11-21T10:00:00.0000000/", None, None, "2026-11-21 11:00:00"
    )
    assert refused == {
        "transition_error": "MarkProcessedRange is not allowed in state TFEND "
        "(only in ILUPDATE, TFSTART, TFREDO) (state 'TFEND/CS/0x1/TS/2026-11-21T10:00:00.0000000/')"
    }
    [malformed] = begin_run_rows("TFEND/CS/zz/TS/x/", 1, "2026-11-21 11:00:00")
    assert malformed["transition_error"].startswith("CS 'zz' is not an LSN")
