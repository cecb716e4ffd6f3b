"""The SSIS CDC state of a CDC group (reference 004): the state string, and the
state machine the CDC Control task drives.

State string::

    <state-name>/CS/<cs-lsn>/[CE/<ce-lsn>/][IR/<ir-start>/<ir-end>/]TS/<timestamp>/[ER/<short-error-text>]

CS is the start of the current processing range (the last LSN the previous run
processed), CE its end (present while a run is in progress or after one
failed), IR the initial-load range, TS the last update (UTC, as .NET writes
``DateTime.UtcNow``: seven fractional digits), ER the last error (always last).
The reference's own example ``ILSTART/IR/0x0000162B158700000000//TS/...`` has
no CS and an empty IR end, so CS, like CE, IR and ER, is optional here. LSNs are
hex strings of up to 20 digits (``binary(10)``), written ``0x...``.

The empty CDC state is ``(INITIAL)``: its state string is empty.

Operations (the CDC Control task's), each a pure function returning the next
state or raising :class:`IllegalTransition`:

* ``mark_initial_load_start``  (INITIAL) -> ILSTART, IR start = the LSN before the load
* ``mark_initial_load_end``    ILSTART -> ILEND, IR end = the LSN after it; CS = IR start
* ``get_processing_range``     takes a range [CS, CE]: ILEND/ILUPDATE -> ILUPDATE,
                               TFEND -> TFSTART, TFSTART/TFREDO/ERROR -> TFREDO
                               (the previous run did not end: its range again,
                               extended to the new landing end: the end of a
                               range is always the maximum, so a redo run
                               leaves the group current)
* ``mark_processed_range``     ILUPDATE/TFSTART/TFREDO -> TFEND, CS = CE
* ``mark_error``               any started state -> ERROR, with ER
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

INITIAL = "(INITIAL)"
STATES = (INITIAL, "ILSTART", "ILEND", "ILUPDATE", "TFSTART", "TFEND", "TFREDO", "ERROR")
REPROCESSING_STATES = ("ILUPDATE", "TFREDO")
_LSN = re.compile(r"^0x[0-9A-Fa-f]{1,20}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?$")
ERROR_TEXT_LIMIT = 200


class MalformedState(ValueError):
    """A state string that does not follow the reference's format."""


class IllegalTransition(ValueError):
    """An operation the CDC Control task does not allow in the current state."""


@dataclass(frozen=True)
class CdcState:
    name: str = INITIAL
    current_start: str | None = None  # CS
    current_end: str | None = None  # CE
    initial_start: str | None = None  # IR start
    initial_end: str | None = None  # IR end ('' while the initial load runs)
    timestamp: str | None = None  # TS, as written
    error: str | None = None  # ER

    @property
    def reprocessing(self) -> bool:
        """``__$reprocessing``: rows of this range may already be on the target."""
        return self.name in REPROCESSING_STATES

    @property
    def updated_at(self) -> datetime | None:
        """TS as a datetime (to the microsecond; the seventh digit is dropped)."""
        if not self.timestamp:
            return None
        whole, _, fraction = self.timestamp.partition(".")
        value = datetime.fromisoformat(whole)
        return value.replace(microsecond=int((fraction + "000000")[:6])) if fraction else value


def format_timestamp(value: datetime) -> str:
    """``value`` (UTC) as TS: seven fractional digits, as .NET writes DateTime."""
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond:06d}0"


def _check_lsn(value: str | None, part: str, *, may_be_empty: bool = False) -> None:
    if value is None or (may_be_empty and value == ""):
        return
    if not _LSN.match(value):
        raise MalformedState(f"{part} {value!r} is not an LSN (0x and up to 20 hex digits)")


def format_state(state: CdcState) -> str:
    """The state string of ``state`` ('' for (INITIAL))."""
    if state.name not in STATES:
        raise MalformedState(f"unknown state {state.name!r} (one of {', '.join(STATES)})")
    if state.name == INITIAL:
        return ""
    _check_lsn(state.current_start, "CS")
    _check_lsn(state.current_end, "CE")
    _check_lsn(state.initial_start, "IR start")
    _check_lsn(state.initial_end, "IR end", may_be_empty=True)
    if state.timestamp is None or not _TIMESTAMP.match(state.timestamp):
        raise MalformedState(f"TS {state.timestamp!r} is not a timestamp (yyyy-mm-ddThh:mm:ss.fffffff)")
    parts = [state.name]
    if state.current_start is not None:
        parts += ["CS", state.current_start]
    if state.current_end is not None:
        parts += ["CE", state.current_end]
    if state.initial_start is not None:
        parts += ["IR", state.initial_start, state.initial_end or ""]
    parts += ["TS", state.timestamp]
    text = "/".join(parts) + "/"
    if state.error is not None:
        text += "ER/" + state.error
    return text


def parse_state(text: str | None) -> CdcState:
    """The :class:`CdcState` of a state string; empty or null is (INITIAL)."""
    if text is None or text == "" or text == INITIAL:
        return CdcState()
    error = None
    marker = text.find("/ER/")
    if marker >= 0:
        text, error = text[: marker + 1], text[marker + 4 :]
    if not text.endswith("/"):
        raise MalformedState("a state string ends with '/' (or with ER/<text>)")
    tokens = text[:-1].split("/")
    name, rest = tokens[0], tokens[1:]
    if name not in STATES or name == INITIAL:
        raise MalformedState(f"unknown state {name!r} (one of {', '.join(STATES[1:])})")
    values: dict[str, object] = {"name": name, "error": error}
    expected = ["CS", "CE", "IR", "TS"]
    position = 0
    while position < len(rest):
        part = rest[position]
        if part not in expected:
            raise MalformedState(f"unexpected {part!r} after {'/'.join([name, *rest[:position]])!r}")
        expected = expected[expected.index(part) + 1 :]
        if part == "IR":
            if position + 2 >= len(rest):
                raise MalformedState("IR needs a start and an end LSN")
            values["initial_start"], values["initial_end"] = rest[position + 1], rest[position + 2]
            position += 3
        else:
            if position + 1 >= len(rest):
                raise MalformedState(f"{part} has no value")
            key = {"CS": "current_start", "CE": "current_end", "TS": "timestamp"}[part]
            values[key] = rest[position + 1]
            position += 2
    if "timestamp" not in values:
        raise MalformedState("no TS part")
    state = CdcState(**values)
    format_state(state)  # validates the parts
    return state


# ------------------------------------------------------------------ transitions


def _require(state: CdcState, operation: str, allowed: tuple[str, ...]) -> None:
    if state.name not in allowed:
        raise IllegalTransition(
            f"{operation} is not allowed in state {state.name} (only in {', '.join(allowed)})"
        )


def mark_initial_load_start(state: CdcState, lsn: str, now: datetime) -> CdcState:
    """Before the initial load: IR start is the LSN just before it. Also after a
    load that did not end (ILSTART, or ERROR before any range was processed)."""
    _require(state, "MarkInitialLoadStart", (INITIAL, "ILSTART", "ERROR"))
    if state.name == "ERROR" and state.current_start is not None:
        raise IllegalTransition("MarkInitialLoadStart is not allowed in state ERROR after the initial load")
    return CdcState("ILSTART", initial_start=lsn, initial_end="", timestamp=format_timestamp(now))


def mark_initial_load_end(state: CdcState, lsn: str, now: datetime) -> CdcState:
    """After the initial load: IR end is the LSN just after it; the first range
    starts at IR start, so changes made during the load are read again."""
    _require(state, "MarkInitialLoadEnd", ("ILSTART",))
    return CdcState(
        "ILEND",
        current_start=state.initial_start,
        initial_start=state.initial_start,
        initial_end=lsn,
        timestamp=format_timestamp(now),
    )


def get_processing_range(state: CdcState, end_lsn: str, now: datetime) -> CdcState:
    """A run takes its range [CS, CE]. A run that finds TFSTART (the previous one
    died), TFREDO or ERROR takes the unfinished range again (TFREDO, reprocessing)
    with what landed since: CE is the greater of the unfinished range's end and
    ``end_lsn`` (the reference assumes a range's end is always the maximum; a
    redo that stopped at the old CE would end TFEND with the group a run behind).
    One still inside the initial range stays ILUPDATE, its end extended the same
    way. (INITIAL) starts at the beginning (a source without an initial load)."""
    _require(
        state,
        "GetProcessingRange",
        (INITIAL, "ILEND", "ILUPDATE", "TFEND", "TFSTART", "TFREDO", "ERROR"),
    )
    stamp = format_timestamp(now)
    if state.name == "ERROR" and state.current_start is None and state.initial_start is not None:
        raise IllegalTransition(
            "GetProcessingRange is not allowed in state ERROR before the initial load ended"
        )
    if state.name in ("ILEND", "ILUPDATE"):
        end = _greater_lsn(state.current_end, end_lsn) if state.name == "ILUPDATE" else end_lsn
        return replace(state, name="ILUPDATE", current_end=end, timestamp=stamp, error=None)
    if state.name in ("TFSTART", "TFREDO", "ERROR") and state.current_end is not None:
        end = _greater_lsn(state.current_end, end_lsn)
        return replace(state, name="TFREDO", current_end=end, timestamp=stamp, error=None)
    start = state.current_start if state.current_start is not None else "0x00000000000000000000"
    return CdcState("TFSTART", current_start=start, current_end=end_lsn, timestamp=stamp)


def _greater_lsn(recorded: str | None, landed: str) -> str:
    """The later of a recorded range end and a landing end (the recorded text kept
    when it is not earlier)."""
    if recorded is None:
        return landed
    return landed if micros_from_lsn(landed) > micros_from_lsn(recorded) else recorded


def mark_processed_range(state: CdcState, now: datetime) -> CdcState:
    """The run ended cleanly: the next range starts where this one ended."""
    _require(state, "MarkProcessedRange", ("ILUPDATE", "TFSTART", "TFREDO"))
    return CdcState("TFEND", current_start=state.current_end, timestamp=format_timestamp(now))


def mark_error(state: CdcState, text: str, now: datetime) -> CdcState:
    """The run failed: ERROR with a short, one-line ER text; the range is kept
    (the next run takes it again as TFREDO)."""
    _require(state, "MarkError", ("ILSTART", "ILEND", "ILUPDATE", "TFSTART", "TFREDO", "ERROR"))
    short = " ".join(str(text).split()) or "unknown error"
    if len(short) > ERROR_TEXT_LIMIT:
        short = short[: ERROR_TEXT_LIMIT - 1] + "…"
    return replace(state, name="ERROR", timestamp=format_timestamp(now), error=short)


def lsn_from_micros(micros: int) -> str:
    """A landing position (microseconds since the epoch) as a 10-byte LSN."""
    if micros < 0:
        raise ValueError("a landing position is not negative")
    return f"0x{micros:020X}"


def micros_from_lsn(lsn: str) -> int:
    _check_lsn(lsn, "LSN")
    return int(lsn[2:], 16)


# ------------------------------------------------------------------ dbt runs

INITIAL_LOAD_START = "0x00000000000000000000"


def begin_run(state: CdcState, landed_end: str, now: datetime) -> list[CdcState]:
    """The states a dbt run records for a group when it starts, oldest first; the
    last one holds the range the run processes ([CS, CE], CE = ``landed_end``, the
    landing position of the group's raw tables when the run started).

    A group's first run is its initial load: every baseline row (full load,
    REFRESH, snapshot ``r``) and change landed up to ``landed_end`` is read in one
    range, so the initial range is known when the run starts; ILSTART and ILEND
    are recorded together and the range is processed as ILUPDATE. A run that
    finds ILSTART (a load recorded without its end) starts the load again.
    """
    if state.name in (INITIAL, "ILSTART") or (state.name == "ERROR" and state.current_start is None):
        load = mark_initial_load_start(state, INITIAL_LOAD_START, now)
        loaded = mark_initial_load_end(load, landed_end, now)
        return [load, loaded, get_processing_range(loaded, landed_end, now)]
    if state.current_start is not None and micros_from_lsn(landed_end) < micros_from_lsn(state.current_start):
        landed_end = state.current_start  # a range never ends before it starts
    return [get_processing_range(state, landed_end, now)]


def end_run(
    state: CdcState, now: datetime, error: str | None = None, processed_end: str | None = None
) -> CdcState:
    """The state a dbt run records for a group when it ends: TFEND (the next
    range starts at this one's CE, or at ``processed_end`` when the run left the
    range's end for later, e.g. a transaction not yet complete) or, when one of
    the group's models failed, ERROR with a short ``error`` text (the next run
    takes the range again)."""
    if error is not None:
        return mark_error(state, error, now)
    ended = mark_processed_range(state, now)
    if processed_end is not None and state.current_start is not None:
        end = max(micros_from_lsn(processed_end), micros_from_lsn(state.current_start))
        if end < micros_from_lsn(state.current_end):
            ended = replace(ended, current_start=lsn_from_micros(end))
    return ended


def state_row(state: CdcState) -> dict[str, object]:
    """``state`` as the columns of a state-table row: the state string and its parts."""
    return {
        "state": format_state(state),
        "state_name": state.name,
        "current_start_lsn": state.current_start,
        "current_end_lsn": state.current_end,
        "initial_start_lsn": state.initial_start,
        "initial_end_lsn": state.initial_end,
        "updated_at": state.updated_at,
        "error_text": state.error,
        "reprocessing": state.reprocessing,
    }


def _run_rows(step, state_text: str | None, now_text: str) -> list[dict[str, object]]:
    try:
        now = datetime.fromisoformat(now_text)
        rows = [state_row(state) for state in step(parse_state(state_text), now)]
    except (MalformedState, IllegalTransition, ValueError) as exc:
        return [{"transition_error": f"{exc} (state {state_text!r})"}]
    for row in rows:
        row["updated_at"] = row["updated_at"].isoformat(sep=" ")
    return rows


def begin_run_rows(state_text: str | None, landed_end_micros: int | None, now_text: str) -> list[dict]:
    """:func:`begin_run` from and to state-table columns (the SQL function
    ``cdcflow_cdc_state_begin_run``): the rows to record, or one row with
    ``transition_error`` saying why the state cannot start a run."""
    landed_end = lsn_from_micros(landed_end_micros or 0)
    return _run_rows(lambda state, now: begin_run(state, landed_end, now), state_text, now_text)


def end_run_rows(
    state_text: str | None, error: str | None, processed_end_micros: int | None, now_text: str
) -> list[dict]:
    """:func:`end_run` from and to state-table columns (``cdcflow_cdc_state_end_run``)."""
    processed_end = None if processed_end_micros is None else lsn_from_micros(max(processed_end_micros, 0))
    return _run_rows(lambda state, now: [end_run(state, now, error, processed_end)], state_text, now_text)
