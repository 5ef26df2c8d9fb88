"""Reading a player's order mail (§3.1) and echoing it back normalised.

Every line is parsed and checked on its own, so one reply lists every problem. Hard errors
(A-10) reject the whole submission; soft issues (duplicate positions, void or excess
challenges, a greeting line) are corrected and reported as warnings.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from gm_daemon.games.highnoon.model import FIRST_POSITION, LAST_POSITION, Orders, Player, State
from gm_daemon.games.highnoon.rules import challenge_cap
from gm_daemon.games.highnoon.syntax import (
    ChallengesHeading,
    DuelLine,
    DuelsHeading,
    LineSyntaxError,
    NameList,
    OrderLine,
    PlayerLine,
    parse_line,
)
from gm_daemon.games.highnoon.texts import quoted, say
from gm_daemon.games.kit import names
from gm_daemon.games.protocol import Accepted, Line, OrdersRejected, Problem, ProblemKind


@dataclass
class _Reading:
    """The submission as read so far: one instance per ``read_orders`` call."""

    state: State
    seat: str
    lang: str
    view: _View  # ``_view(state)``: its players by seat, their names
    section: str | None = None  # "duels" or "challenges": where bare names belong
    shots: dict[str, list[int]] = field(default_factory=dict)
    duel_line_of: dict[str, int] = field(default_factory=dict)
    challenge_names: list[tuple[Line, str]] = field(default_factory=list)
    # Shots written in any duel line, also in lines refused for another reason: the budget
    # is checked against what the player meant, so it is named in the same reply (issue 9).
    written_shots: int = 0
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    # --- helpers -------------------------------------------------------------------
    @property
    def players(self) -> names.Names[str]:
        return self.view.players

    def name_of(self, seat: str) -> str:
        """``state.player(seat).name``, by the state's table (``_View``)."""
        try:
            return self.view.name_of[seat]
        except KeyError:
            return self.state.player(seat).name  # raises as it always did

    def error(self, line: Line | None, kind: ProblemKind, message: str, hint: str = "") -> None:
        self.errors.append(_problem(line, kind, message, hint))

    def warn(self, line: Line | None, kind: ProblemKind, message: str, hint: str = "") -> None:
        self.warnings.append(_problem(line, kind, message, hint))

    def opponents_hint(self) -> str:
        opponents = [self.name_of(o) for o in self.state.opponents(self.seat)]
        if not opponents:
            return say(self.lang, "duel.no_opponents.hint", round=self.state.round)
        return say(
            self.lang,
            "duel.opponents.hint",
            round=self.state.round,
            opponents=", ".join(opponents),
        )

    def resolve(self, written: str, eligible: set[str]) -> list[str]:
        """Seats a written name may mean; an ambiguous name is settled when exactly one of
        its candidates is eligible (an opponent in a duel line, an active player in a
        challenge), since that is the only reading that makes sense."""
        return self.players.find(written, among=eligible)

    def near_miss(
        self, line: Line, written: str, eligible: set[str], key: str, instead: str = ""
    ) -> bool:
        """A name no player has that is a typo of one eligible player's: the line is
        refused with "Meinten Sie M. Middle?" and the line to send instead (True):
        ``instead`` where the caller knows more of the line, else the name put in."""
        guess = self.players.guess(written, among=eligible)
        if guess is None:
            return False
        name = self.name_of(guess)
        message = f"{say(self.lang, key, name=written)} {names.did_you_mean(self.lang, name)}"
        hint = instead or names.put_in(line.text.strip(), written, name)
        self.error(line, ProblemKind.ILLEGAL, message, hint)
        return True


def _problem(line: Line | None, kind: ProblemKind, message: str, hint: str) -> Problem:
    return Problem(
        line=line.no if line else None,
        source=line.text if line else "",
        kind=kind,
        message=message,
        hint=hint,
    )


# --- one line at a time ---------------------------------------------------------------


def _take(reading: _Reading, line: Line) -> None:
    try:
        parsed = parse_line(line.text)
    except LineSyntaxError as mistake:
        if mistake.label == "no_positions" and _is_intro(reading, line.text):
            reading.warn(
                line,
                ProblemKind.SYNTAX,
                say(reading.lang, "warn.ignored", text=line.text.strip()),
                say(reading.lang, "warn.ignored.hint"),
            )
            return
        own = reading.name_of(reading.seat)
        message = say(reading.lang, f"syntax.{mistake.label}")
        hint = say(reading.lang, f"syntax.{mistake.label}.hint", own=own)
        reading.error(line, ProblemKind.SYNTAX, message, hint)
        return
    _dispatch(reading, line, parsed)


def _is_intro(reading: _Reading, text: str) -> bool:
    """A line of words ending in a colon that names no player ("Hier meine Befehle:",
    "My orders:"): an introduction, not a duel line without positions."""
    words = text.strip().removesuffix(":").strip()
    return (
        text.strip().endswith(":")
        and bool(words)
        and not any(c.isdigit() or c == ":" for c in words)
        and not reading.players.find(words)
    )


def _dispatch(reading: _Reading, line: Line, parsed: OrderLine) -> None:
    """Headings switch the section; everything else is checked against the state.
    FERTIG/DONE, "keine" and a pasted "Patronen verplant" line change nothing."""
    match parsed:
        case DuelsHeading():
            reading.section = "duels"
        case ChallengesHeading(names):
            reading.section = "challenges"
            reading.challenge_names.extend((line, name) for name in names)
        case DuelLine():
            _take_duel(reading, line, parsed)
        case NameList(names) if reading.section == "challenges":
            reading.challenge_names.extend((line, name) for name in names)
        case NameList(names):
            _take_bare_names(reading, line, names)
        case PlayerLine(name):
            _check_player(reading, line, name)
        case _:
            pass


def _take_duel(reading: _Reading, line: Line, duel: DuelLine) -> None:
    opponent = _duel_opponent(reading, line, duel.name)
    positions = _checked_positions(reading, line, duel.positions, opponent)
    reading.written_shots += len(set(duel.positions))
    if opponent is None:
        return
    if opponent in reading.duel_line_of:
        name = reading.name_of(opponent)
        first = reading.duel_line_of[opponent]
        reading.error(
            line,
            ProblemKind.ILLEGAL,
            say(reading.lang, "duel.duplicate", name=name, first=first),
            say(reading.lang, "duel.duplicate.hint", name=name),
        )
        return
    reading.duel_line_of[opponent] = line.no
    if positions:  # None after a range error, () for "keine"
        reading.shots[opponent] = positions


def _duel_opponent(reading: _Reading, line: Line, written: str) -> str | None:
    """The opponent a duel line names, or None after recording why it names none."""
    lang, opponents = reading.lang, set(reading.state.opponents(reading.seat))
    found = reading.resolve(written, opponents)
    if not found and reading.near_miss(line, written, opponents, "duel.unknown"):
        return None
    if not found:
        message = say(lang, "duel.unknown", name=written)
        reading.error(line, ProblemKind.ILLEGAL, message, reading.opponents_hint())
        return None
    if len(found) > 1:
        candidates = ", ".join(map(reading.name_of, found))
        message = say(lang, "duel.ambiguous", name=written, candidates=candidates)
        hint = say(lang, "duel.ambiguous.hint", example=reading.name_of(found[0]))
        reading.error(line, ProblemKind.AMBIGUOUS, message, hint)
        return None
    target = found[0]
    if target not in opponents:
        name = reading.name_of(target)
        message = say(lang, "duel.not_opponent", name=name, round=reading.state.round)
        reading.error(line, ProblemKind.ILLEGAL, message, reading.opponents_hint())
        return None
    return target


def _checked_positions(
    reading: _Reading, line: Line, written: Sequence[int], opponent: str | None
) -> list[int] | None:
    """Distinct positions, highest first; None (with an error) when one is off the range."""
    lang = reading.lang
    outside = [k for k in written if not LAST_POSITION <= k <= FIRST_POSITION]
    if outside:
        positions = ", ".join(str(k) for k in outside)
        message = say(lang, "duel.range", positions=positions)
        reading.error(line, ProblemKind.ILLEGAL, message, _range_fix(reading, written, opponent))
        return None
    twice = sorted({k for k in written if list(written).count(k) > 1}, reverse=True)
    if twice:
        positions = ", ".join(str(k) for k in twice)
        reading.warn(
            line, ProblemKind.ILLEGAL, say(lang, "warn.duplicate_positions", positions=positions)
        )
    return sorted(set(written), reverse=True)


def _range_fix(reading: _Reading, written: Sequence[int], opponent: str | None) -> str:
    """The duel line without the positions off the range, to send back as it stands; the
    range alone while the opponent is not known yet (his line has its own error)."""
    if opponent is None:
        return say(reading.lang, "duel.range.hint")
    kept = sorted({k for k in written if LAST_POSITION <= k <= FIRST_POSITION}, reverse=True)
    shots = ", ".join(map(str, kept)) or say(reading.lang, "none")
    return f"{reading.name_of(opponent)}: {shots}"


def _take_bare_names(reading: _Reading, line: Line, names: Sequence[str]) -> None:
    """Names outside the challenges section: a player's name there lacks its positions
    (an error); anything else is a greeting or a closing line and is skipped with a note,
    the sender's own name, too ("Hans" under the orders is a signature)."""
    for written in names:
        found = reading.resolve(written, set(reading.state.opponents(reading.seat)))
        if found and found != [reading.seat]:
            name = reading.name_of(found[0]) if len(found) == 1 else written
            reading.error(
                line,
                ProblemKind.SYNTAX,
                say(reading.lang, "duel.bare_name", name=name),
                say(reading.lang, "duel.bare_name.hint", name=name),
            )
            return
    if all(reading.resolve(w, set()) == [reading.seat] for w in names):
        message = say(reading.lang, "warn.signature", text=line.text.strip())
        reading.warn(line, ProblemKind.SYNTAX, message)
        return
    reading.warn(
        line,
        ProblemKind.SYNTAX,
        say(reading.lang, "warn.ignored", text=line.text.strip()),
        say(reading.lang, "warn.ignored.hint"),
    )


def _check_player(reading: _Reading, line: Line, written: str) -> None:
    """The optional ``Spieler:`` line must name the sender (§3)."""
    if reading.seat in reading.players.find(written):
        return
    own = reading.name_of(reading.seat)
    reading.error(
        line,
        ProblemKind.ILLEGAL,
        say(reading.lang, "player.mismatch", name=written, own=own),
        say(reading.lang, "player.mismatch.hint", own=own),
    )


# --- the submission as a whole --------------------------------------------------------


def _challenges(reading: _Reading) -> list[str]:
    """HN-8: void names warned and dropped, repeats counted once, then the cap of HN-7
    (the excess named as the player wrote it, as in "'Schnell' dropped")."""
    kept: list[tuple[Line, str, str]] = []  # line, name as written, seat id
    for line, written in reading.challenge_names:
        target = _challenge_target(reading, line, written, [seat for _, _, seat in kept])
        if target is not None:
            kept.append((line, written, target))
    cap = challenge_cap(reading.view.player(reading.seat))
    if len(kept) > cap:
        dropped = quoted([written for _, written, _ in kept[cap:]], reading.lang)
        message = say(reading.lang, "challenge.cap", count=len(kept), cap=cap, dropped=dropped)
        hint = say(reading.lang, "challenge.cap.hint", cap=cap)
        reading.warn(kept[cap][0], ProblemKind.ILLEGAL, message, hint)
    return [seat for _, _, seat in kept[:cap]]


def _challenge_target(reading: _Reading, line: Line, written: str, kept: list[str]) -> str | None:
    """The seat a challenge names, or None after a warning saying why it is void."""
    lang, state = reading.lang, reading.state
    active = [seat for seat in state.playing() if seat != reading.seat]
    found = reading.resolve(written, set(active))
    if not found:
        instead = _challenge_line_as_it_counts(reading, line, set(active))
        if reading.near_miss(line, written, set(active), "challenge.unknown_name", instead):
            return None
    if not found:
        message = say(lang, "challenge.unknown", name=written)
        reading.warn(line, ProblemKind.ILLEGAL, message, _targets(reading, active))
    elif len(found) > 1:
        candidates = ", ".join(map(reading.name_of, found))
        message = say(lang, "challenge.ambiguous", name=written, candidates=candidates)
        reading.warn(line, ProblemKind.AMBIGUOUS, message, _targets(reading, active))
    elif found[0] == reading.seat:
        reading.warn(line, ProblemKind.ILLEGAL, say(lang, "challenge.self"))
    elif found[0] not in active:
        message = say(lang, "challenge.eliminated", name=reading.name_of(found[0]))
        reading.warn(line, ProblemKind.ILLEGAL, message)
    elif found[0] in kept:
        message = say(lang, "challenge.duplicate", name=reading.name_of(found[0]))
        reading.warn(line, ProblemKind.ILLEGAL, message)
    else:
        return found[0]
    return None


def _challenge_line_as_it_counts(reading: _Reading, line: Line, active: set[str]) -> str:
    """The challenge line a refusal suggests: every near miss on it replaced by the name it
    misses, every name that is void anyway (unknown, ambiguous, the sender, an eliminated
    player) left out, so the line sent back is neither refused nor warned about again."""
    text = line.text.strip()
    for other, written in reading.challenge_names:
        if other.no != line.no:
            continue
        found = reading.resolve(written, active)
        if len(found) == 1 and found[0] in active:
            continue
        guess = None if found else reading.players.guess(written, among=active)
        if guess is None:
            text = _left_out(text, written)
        else:
            text = names.put_in(text, written, reading.name_of(guess))
    return text


# What stands between two challenged names (HN order format: comma, semicolon, und/and, &).
_SEPARATOR = r"\s*(?:[,;&]|\b(?:und|and)\b)\s*"


def _left_out(text: str, written: str) -> str:
    """``text`` without the name ``written`` and the separator that joined it to the list."""
    name = re.escape(written)
    for pattern in (
        rf"{_SEPARATOR}{name}(?!\w)",
        rf"(?<!\w){name}{_SEPARATOR}",
        rf"(?<!\w){name}(?!\w)",
    ):
        shorter, count = re.subn(pattern, "", text, count=1, flags=re.IGNORECASE)
        if count:
            return re.sub(r"\s{2,}", " ", shorter).strip()
    return text


def _targets(reading: _Reading, active: list[str]) -> str:
    """The hint naming whom a challenge may name: only said beside a void one."""
    names = ", ".join(map(reading.name_of, active))
    return say(reading.lang, "challenge.players.hint", names=names)


def _check_budget(reading: _Reading) -> None:
    """HN-6: all shot lists together within P as published at the start of the round."""
    planned = sum(len(positions) for positions in reading.shots.values())
    if reading.errors:  # lines refused for other reasons still spend cartridges
        planned = max(planned, reading.written_shots)
    cartridges = reading.view.player(reading.seat).cartridges
    if planned <= cartridges:
        return
    lang = reading.lang
    message = say(lang, "budget", count=planned, cartridges=cartridges)
    excess = say(lang, "shots", count=planned - cartridges)
    hint = say(lang, "budget.hint", cartridges=cartridges, excess=excess)
    reading.error(None, ProblemKind.ILLEGAL, message, hint)


def read_orders(lines: Sequence[Line], state: State, seat: str, lang: str) -> Accepted[Orders]:
    """The protocol's ``read_orders``: orders, or OrdersRejected naming every problem."""
    reading = _Reading(state=state, seat=seat, lang=lang, view=_view(state))
    if state.finished or not reading.view.player(seat).active:
        reading.error(
            None, ProblemKind.ILLEGAL, say(lang, "finished" if state.finished else "not_active")
        )
        raise OrdersRejected(reading.errors)
    for line in lines:
        if line.text.strip():
            _take(reading, line)
    challenges = _challenges(reading)
    _check_budget(reading)
    if reading.errors:
        raise OrdersRejected(reading.errors, reading.warnings)
    orders = Orders(shots=reading.shots, challenges=challenges)
    return Accepted(orders=orders, warnings=reading.warnings)


def passes_over(text: str, state: State, seat: str) -> bool:
    """The protocol's optional ``passes_over``: whether ``read_orders`` reads this line,
    wherever it stands, as a warning of its own and as nothing else. So it does a list of
    names none of which is a player's nor a near miss of an active opponent's ("Hallo,",
    "Gruß"): outside the challenges a skipped line, inside a void challenge, and neither
    changes the section, the shots, the kept challenges nor another line's reading. A
    finished game or an inactive seat reads no line at all (the refusal says no warning)."""
    if state.finished or not state.player(seat).active:
        return False
    try:
        parsed = parse_line(text)
    except LineSyntaxError:
        return False
    if not isinstance(parsed, NameList) or not parsed.names:
        return False
    view = _view(state)
    players, active = view.players, view.others_playing(seat)
    return all(
        not players.find(written) and players.guess(written, among=active) is None
        for written in parsed.names
    )


@dataclass
class _View:
    """What one state says about its players, worked out once per state object: every
    mail of a round asks the same questions of the same state (the referee hands out one
    object while the game is unchanged, and no call changes the state it is given:
    tests/conformance), and each greeting line and each description built the roster's
    names anew."""

    state: State
    players: names.Names[str]
    name_of: dict[str, str]
    playing: tuple[str, ...]
    by_seat: dict[str, Player]
    _others: dict[str, frozenset[str]] = field(default_factory=dict)
    _opponents: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def player(self, seat: str) -> Player:
        """``state.player(seat)`` by a table: read_orders and describe_orders ask 4× a
        mail, and a walk over pydantic models costs an attribute look-up each."""
        try:
            return self.by_seat[seat]
        except KeyError:
            return self.state.player(seat)  # raises as it always did

    def opponents(self, seat: str) -> tuple[str, ...]:
        found = self._opponents.get(seat)
        if found is None:
            found = self._opponents[seat] = tuple(self.state.opponents(seat))
        return found

    def others_playing(self, seat: str) -> frozenset[str]:
        others = self._others.get(seat)
        if others is None:
            others = self._others[seat] = frozenset(p for p in self.playing if p != seat)
        return others


# Views kept, by the state's ``id`` (the entry holds the state, so the id is not reused while
# it is kept): one per running game of the daemon's last mails.
VIEWS_KEPT = 64
_VIEWS: OrderedDict[int, _View] = OrderedDict()


def _view(state: State) -> _View:
    kept = _VIEWS.get(id(state))
    if kept is not None and kept.state is state:
        _VIEWS.move_to_end(id(state))
        return kept
    view = _View(
        state,
        names.of_seats(state.players),
        {p.id: p.name for p in state.players},
        tuple(state.playing()),
        {p.id: p for p in state.players},
    )
    _VIEWS[id(state)] = view
    if len(_VIEWS) > VIEWS_KEPT:
        _VIEWS.popitem(last=False)
    return view


def describe_orders(state: State, seat: str, orders: Orders, lang: str) -> str:
    """The normalised orders, e.g. "Duell gegen H. Glück: 19, 15, 8, 4" per duel, the
    challenges and "Patronen verplant: 7/8"; the text reads back as the same orders."""
    lines = []
    view = _view(state)
    name_of, none = view.name_of, say(lang, "none")
    opponents = view.opponents(seat)
    for opponent in [*opponents, *(o for o in orders.shots if o not in opponents)]:
        written = ", ".join(map(str, orders.shots.get(opponent, ()))) or none
        lines.append(say(lang, "describe.duel", name=name_of[opponent], positions=written))
    challenged = ", ".join([name_of[t] for t in orders.challenges]) or none
    lines.append(say(lang, "describe.challenges", names=challenged))
    cartridges = view.player(seat).cartridges
    lines.append(say(lang, "describe.budget", planned=orders.planned(), cartridges=cartridges))
    return "\n".join(lines)
