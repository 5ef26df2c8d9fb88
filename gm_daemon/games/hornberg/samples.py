"""The sample cards of the game's texts, in colours the game has.

The phrase catalogue shows its forms with cards of four colours (``ro4 O von ge2``, „rot 4“;
in English ``re4 E of ye2``, 'red 4'). A GM may play with other colours ("rot, blau,
schwarz"): a help that names yellow cards the game does not have shows forms a player cannot
send. Each sample colour the game lacks is shown as one it has, one not already among the
samples where possible. Cards the game really has are never touched: a sample colour that is
missing from the game cannot be the colour of a real card.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gm_daemon.games.hornberg.cards import PALETTE, colour_shown
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.protocol import Problem

SAMPLE_COLOURS = ("ro", "ge", "bl", "gr")  # the colours the catalogue's examples use


def sample_colours(state: State) -> dict[str, str]:
    """Sample colour -> the game's colour shown in its place (only those that change)."""
    colours = state.options.colours
    missing = [c for c in SAMPLE_COLOURS if c not in colours]
    spare = [c for c in colours if c not in SAMPLE_COLOURS]
    return {
        sample: spare[i] if i < len(spare) else colours[i % len(colours)]
        for i, sample in enumerate(missing)
    }


def in_game_colours(state: State, lang: str) -> Callable[[str], str]:
    """A function putting a text's sample cards into the game's colours (codes like
    ``ge2`` and written names like „gelb 2“)."""
    mapping = sample_colours(state)
    if not mapping:
        return _same
    words = {}
    for sample, colour in mapping.items():
        words[colour_shown(sample, lang)] = colour_shown(colour, lang)
        words[_name(sample, lang)] = _name(colour, lang)
    pattern = re.compile(r"(?<![^\W\d_])(" + "|".join(map(re.escape, words)) + r")(?= ?\d)")
    return lambda text: pattern.sub(lambda m: words[m.group(1)], text)


def problems_in_game_colours(problems: list[Problem], state: State, lang: str) -> list[Problem]:
    """What is wrong and what would be right in the game's colours; the player's own line
    (``source``) as he wrote it."""
    shown = in_game_colours(state, lang)
    return [p._replace(message=shown(p.message), hint=shown(p.hint)) for p in problems]


def _name(colour: str, lang: str) -> str:
    found = PALETTE[colour]
    return found.de if lang == "de" else found.en


def _same(text: str) -> str:
    return text
