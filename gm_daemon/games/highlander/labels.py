"""Phase labels as players write them in the ``Phase:`` line (A-16): "1903 Bewegung",
"Zentrenwahl", "1903 Adjustments"; the header reader accepts exactly these."""

from __future__ import annotations

from gm_daemon.games.highlander.model import State
from gm_daemon.games.highlander.wording import PHRASES


def step_label(step: str, year: int, ballot: int, lang: str) -> str:
    if step == "ballot" and ballot > 1:
        return PHRASES(lang, "step_ballot_round", n=ballot)
    return PHRASES(lang, f"step_{step}", year=year)


def phase_label(state: State, lang: str) -> str:
    label = step_label(state.step, state.year, state.ballot, lang)
    return PHRASES(lang, "grace", label=label) if state.grace else label


def phase_noun(state: State, lang: str) -> str:
    """The phase as running text names it: "Ihre Befehle für die Zentrenwahl"."""
    if state.step == "ballot" and state.ballot > 1:
        noun = PHRASES(lang, "noun_ballot_round", n=state.ballot)
    else:
        noun = PHRASES(lang, f"noun_{state.step}", year=state.year)
    return PHRASES(lang, "grace", label=noun) if state.grace else noun


def header_label(state: State, lang: str) -> str:
    """What the ``Phase:`` line of an order mail says now (no grace suffix, no round)."""
    return PHRASES(lang, f"step_{state.step}", year=state.year)
