"""The forms the help and the hints show use the game's own colours (samples.py): a GM who
plays with red, blue and black must not hand his players examples with yellow cards."""

from __future__ import annotations

import random
import re

import pytest

from gm_daemon.games.hornberg import GAME
from gm_daemon.games.hornberg.cards import PALETTE, colour_shown
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.protocol import Line, OrdersRejected, Seat

SEATS = [Seat("anna", "Anna"), Seat("bert", "Bert"), Seat("carla", "Carla")]


def start(variant: str, colours: list[str]):
    options = Options(variant=variant, colours=colours)
    return GAME.start(options, SEATS, random.Random(7))


def foreign_cards(text: str, colours: tuple[str, ...], lang: str) -> list[str]:
    """Cards of a colour the game does not have, by code (``ge2``) or name (``gelb 2``)."""
    others = [c for c in PALETTE if c not in colours]
    words = [colour_shown(c, lang) for c in others]
    words += [PALETTE[c].de if lang == "de" else PALETTE[c].en for c in others]
    pattern = r"(?<![^\W\d_])(" + "|".join(map(re.escape, words)) + r") ?\d"
    return re.findall(pattern, text)


@pytest.mark.parametrize("variant", ["kq", "dd"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_help_welcome_and_status_show_only_the_games_colours(variant: str, lang: str) -> None:
    state = start(variant, ["rot", "blau", "schwarz"])
    colours = state.options.colours
    for seat in SEATS:
        welcome = GAME.welcome(state, seat.id, lang)
        status = GAME.status(state, seat.id, lang)
        texts = [GAME.help(state, seat.id, lang), welcome.public, status.public]
        texts += [*welcome.private.values(), *status.private.values()]
        for text in texts:
            assert foreign_cards(text, colours, lang) == [], text
    if variant == "kq":  # yellow, missing, is shown as black, the colour no sample has
        assert {"de": "ro4 O von sw2", "en": "re4 E of bk2"}[lang] in GAME.help(state, "anna", lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_hint_shows_the_games_colours_and_the_players_line_as_written(lang: str) -> None:
    state = start("kq", ["rot", "blau", "schwarz"])
    seat = state.to_move
    written = "Kanone gelb 4" if lang == "de" else "cannon yellow 4"
    with pytest.raises(OrdersRejected) as rejected:
        GAME.read_orders([Line(1, written)], state, seat, lang)
    (problem,) = rejected.value.problems
    assert problem.source == written  # the player's own words stay
    assert foreign_cards(problem.message + " " + problem.hint, state.options.colours, lang) == []


def test_with_the_four_sample_colours_the_texts_are_as_written() -> None:
    state = start("kq", ["ro", "ge", "bl", "gr"])
    assert "ro4 O von ge2" in GAME.help(state, "anna", "de")
