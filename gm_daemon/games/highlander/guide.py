"""Help, welcome and the example order text, each fitted to the step and the seat (protocol
rule 6: the example is an order text ``read_orders`` accepts for that seat now)."""

from __future__ import annotations

from gm_daemon.games.highlander import boards, setup
from gm_daemon.games.highlander.model import State
from gm_daemon.games.highlander.wording import PHRASES, order
from gm_daemon.games.highlander.year import needs_adjustment
from gm_daemon.games.kit.layout import hanging, table, wrap


def owes(state: State, seat: str) -> bool:
    """Whether ``seat`` has something to decide in the current phase."""
    step = state.step
    if step == "over":
        return False
    if state.grace:
        return seat in state.late
    if step == "ballot":
        return True
    if step == "setup":
        return bool(state.boards[0].starting.get(seat))
    if step == "movement":
        return any(b.units.get(seat) for b in state.boards)
    if step == "retreats":
        return any(d.seat == seat for b in state.boards for d in b.dislodged)
    return any(needs_adjustment(b, seat) for b in state.boards)


def example(state: State, seat: str, lang: str) -> str:
    if state.step == "over":
        return ""
    if state.step == "ballot":
        return _ballot(state, seat, lang)
    if state.step == "setup":
        return _setup(state, seat, lang) if state.boards[0].starting.get(seat) else ""
    if not owes(state, seat):
        return "REMIS" if lang == "de" else "DRAW"
    sections = []
    for board in state.boards:
        lines = _BOARD_LINES[state.step](state, board, seat)
        if state.options.tournament and lines:
            word = "BRETT" if lang == "de" else "BOARD"
            lines = [f"{word} {board.name}:", *lines]
        sections += [order(line, lang) for line in lines]
    return "\n".join(sections)


def _ballot(state: State, seat: str, lang: str) -> str:
    """A valid list; the second player's is taken from the other end of the alphabet, so
    two players copying their examples do not send identical lists."""
    first = state.seats.index(seat) == 0
    free = [c for c in boards.centres() if c not in state.excluded]
    free = free if first else free[::-1]
    chosen: list[str] = []
    if state.options.opt_3A and state.ballot == 1:
        chosen = [homes[0 if first else -1] for homes in setup.home_groups().values()]
    chosen += [c for c in free if c not in chosen][: state.ballot_size - len(chosen)]
    word = "ZENTREN" if lang == "de" else "CENTRES"
    return listed(word, sorted(chosen)[: state.ballot_size])


def listed(word: str, items: list[str]) -> str:
    """``ZENTREN: a, b, …`` wrapped at mail width; the reader takes the continuation lines."""
    return "\n".join(line.strip() for line in hanging(f"{word}: ", items, indent=0))


# The fleets of the standard opening position: the set-up example puts them where the
# player owns their centre and armies everywhere else, so that a player who sends it back
# as it stands is not left without a fleet in London or Ankara.
_OPENING_FLEETS = {"ANK": "F ANK", "BRE": "F BRE", "EDI": "F EDI", "KIE": "F KIE",
                   "LON": "F LON", "NAP": "F NAP", "SEV": "F SEV", "STP": "F STP/SC",
                   "TRI": "F TRI"}  # fmt: skip


def _setup(state: State, seat: str, lang: str) -> str:
    word = "AUFSTELLUNG" if lang == "de" else "SETUP"
    units = [_OPENING_FLEETS.get(c, f"A {c}") for c in state.boards[0].starting[seat]]
    if lang == "de":  # the German coast names the help gives
        units = [u.replace("/SC", "/SK") for u in units]
    return listed(word, units)


def _movement(state: State, board, seat: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{u} H" for u in board.units.get(seat, [])]


def _retreats(state: State, board, seat: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{d.unit} - {d.options[0]}" for d in board.dislodged if d.seat == seat]


def _adjustments(state: State, board, seat: str) -> list[str]:  # type: ignore[no-untyped-def]
    balance = boards.balance(board, seat)
    if balance > 0:
        return [f"BUILD A {c}" for c in boards.free_sites(board, seat)[:balance]]
    return [f"REMOVE {u}" for u in board.units.get(seat, [])[: max(0, -balance)]]


_BOARD_LINES = {"movement": _movement, "retreats": _retreats, "adjustments": _adjustments}


def centre_names(lang: str) -> str:
    """The 34 supply centres, abbreviation and name in the player's language, in three
    columns read downwards: the first mail that shows abbreviations explains them."""
    names = [f"{c} {PHRASES(lang, f'centre_{c}')}" for c in boards.centres()]
    height = -(-len(names) // 3)
    columns = [names[i : i + height] for i in range(0, len(names), height)]
    rows = [[column[r] for column in columns if r < len(column)] for r in range(height)]
    return wrap(PHRASES(lang, "centre_names")) + "\n" + "\n".join("  " + r for r in table(rows))


def without_orders(state: State, seat: str, lang: str) -> str:
    """What applies to ``seat`` when he sends nothing in the current phase (HL-13, A-11)."""
    step = state.step
    if step in ("ballot", "setup"):
        return PHRASES(lang, f"nmr_{step}_grace" if state.grace else f"nmr_{step}")
    if step == "over" or not owes(state, seat):
        return PHRASES(lang, "nmr_nothing")
    if step == "adjustments":
        removing = any(boards.balance(b, seat) < 0 for b in state.boards)
        return PHRASES(lang, "nmr_removals" if removing else "nmr_builds")
    return PHRASES(lang, f"nmr_{step}")


def help_text(state: State, seat: str, lang: str) -> str:
    parts = [_step_help(state, lang)]
    if state.step != "over":
        parts.append(centre_names(lang))
    if state.step in ("movement", "retreats", "adjustments"):
        if state.options.tournament:
            parts.append(PHRASES(lang, "help_tournament"))
        parts.append(PHRASES(lang, "help_draw"))
        parts.append(PHRASES(lang, "help_map"))
    text = example(state, seat, lang)
    if state.step not in ("ballot", "setup", "over") and not owes(state, seat):
        parts.append(PHRASES(lang, "help_nothing"))
    parts = [wrap(p) for p in parts if p]
    if text:  # quoted verbatim, so that what a player copies is what ``read_orders`` takes
        parts.append(PHRASES(lang, "help_example") + "\n\n" + text)
    return "\n\n".join(parts) + "\n"


def next_text(state: State, seat: str, lang: str) -> str:
    """For a result mail: what ``seat`` decides in the phase that follows, with an example
    he may send back as it stands."""
    parts = [wrap(_step_help(state, lang))]
    text = example(state, seat, lang)
    if text:
        parts.append(PHRASES(lang, "help_example") + "\n\n" + text)
    return "\n\n".join(parts) + "\n"


def _step_help(state: State, lang: str) -> str:
    step = state.step
    if step == "over":
        return PHRASES(lang, "game_over")
    if step == "movement":
        forms = [line.split("|") for line in PHRASES(lang, "forms").splitlines()]
        rows = "\n".join("  " + line for line in table(forms))
        return PHRASES(lang, "help_movement") + "\n" + rows
    if step != "ballot":
        return PHRASES(lang, f"help_{step}")
    text = PHRASES(lang, "help_ballot", size=state.ballot_size)
    if state.excluded:
        text += "\n" + PHRASES(lang, "help_excluded", centres=", ".join(state.excluded))
    if state.options.opt_3A and state.ballot == 1:
        text += "\n" + PHRASES(lang, "help_3a")
    return text


def welcome_text(state: State, seat: str, lang: str) -> str:
    options = state.options
    fixed = options.opt_3B and options.fixed_setup is not None
    start = PHRASES(lang, "welcome_start_fixed" if fixed else "welcome_start", year=state.year)
    parts = [PHRASES(lang, "welcome_intro", other=state.name(state.other(seat)), start=start)]
    if options.max_year is not None and not options.tournament:
        parts[0] += " " + PHRASES(lang, "welcome_max_year", year=options.max_year)
    if options.tournament:
        parts.append(PHRASES(lang, "welcome_tournament"))
        if options.match_max_year is not None:
            parts[-1] += " " + PHRASES(lang, "welcome_match_max_year", year=options.match_max_year)
    return "\n\n".join(wrap(p) for p in parts) + "\n\n" + help_text(state, seat, lang)
