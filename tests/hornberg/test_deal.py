"""Options, the deck, the deal and the dealer's seat (HB-1, HB-2, HB-4, DD-1, KQ-1, A-9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from pydantic import ValidationError

from gm_daemon.games.hornberg import GAME, cards
from gm_daemon.games.hornberg.deal import deal_round, new_game
from gm_daemon.games.hornberg.model import SeatInfo
from gm_daemon.games.hornberg.options import Options
from gm_daemon.games.hornberg.rules import all_cards
from gm_daemon.games.protocol import Seat

SEATS = [SeatInfo(id=n.lower(), name=n) for n in ("Anna", "Bert", "Carla", "Dora", "Emil")]


def options(**values: object) -> Options:
    return Options.model_validate({"variant": "kq", **values})


def test_variant_names_of_the_config() -> None:
    """Config: the issue's names, the spec's short names, and Kreuzer & Quer (KQ-11)."""
    assert Options.model_validate({"variant": "drunter-drueber"}).variant == "dd"
    assert Options.model_validate({"variant": "Drunter & Drüber"}).variant == "dd"
    assert Options.model_validate({"variant": "kreuz-quer"}).variant == "kq"
    kreuzer = Options.model_validate({"variant": "kreuzer-quer"})
    assert kreuzer.variant == "kq" and kreuzer.kq_double_negative


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(ValidationError, match="variant"):
        Options.model_validate({"variant": "skat"})
    with pytest.raises(ValidationError, match="beer_counts"):
        Options.model_validate({"variant": "dd", "beer_counts": [1, 2, 3]})
    with pytest.raises(ValidationError, match="colours"):
        Options.model_validate({"variant": "dd", "colours": ["ro", "xx"]})
    with pytest.raises(ValidationError, match="turn_deadline"):
        Options.model_validate({"variant": "dd", "turn_deadline": "48h"})


def test_beer_counts_as_a_table() -> None:
    """A-2: the beer distribution is configurable, as a list or as a value table."""
    table = Options.model_validate({"variant": "dd", "beer_counts": {"0": 3, "4": 18}})
    assert table.beer_counts == (3, 0, 0, 0, 18, 0, 0, 0, 0)


def test_decks_hold_what_the_box_holds() -> None:
    """DD-1, KQ-1, §1: 36 cannons (each colour and value once), 21 beers, 9 dukes."""
    box = cards.full_deck(cards.DEFAULT_COLOURS, cards.DEFAULT_BEER_COUNTS)
    kinds = Counter(cards.kind(c) for c in box)
    assert kinds == {"cannon": 36, "beer": 21, "duke": 9}
    assert len({c for c in box if cards.kind(c) != "beer"}) == 45
    dd = cards.dd_deck(cards.DEFAULT_COLOURS, cards.DEFAULT_BEER_COUNTS)
    assert len(dd) == 60 and {c for c in dd if cards.kind(c) == "duke"} == {"H1", "H2", "H3"}


@pytest.mark.parametrize("variant", ["dd", "kq"])
def test_deal_gives_private_hands_of_ten_and_keeps_the_box_whole(variant: str) -> None:
    """HB-2: ten cards each, the rest is the pile; every card of the box is somewhere."""
    state = new_game(options(variant=variant), SEATS[:4], random.Random(5))
    assert all(len(hand) == 10 for hand in state.hands.values())
    assert len(state.pile) == (60 if variant == "dd" else 66) - 40
    box = cards.full_deck(cards.DEFAULT_COLOURS, cards.DEFAULT_BEER_COUNTS)
    assert Counter(all_cards(state)) == Counter(box)


def test_dd_base_dukes_are_three_of_four_to_nine() -> None:
    """DD-1: three of the dukes 4–9 become the row bases, the other three leave the round."""
    for seed in range(20):
        state = new_game(options(variant="dd"), SEATS[:3], random.Random(seed))
        bases = [row.base for row in state.table.rows]
        assert len(set(bases)) == 3 and set(bases) <= set(range(4, 10))
        assert sorted(cards.value(d) for d in state.out_of_game) == sorted(
            set(range(4, 10)) - set(bases)
        )


def test_first_dealer_by_lot_and_start_player_on_his_left() -> None:
    """HB-1: the first dealer is drawn; the start player sits left of the dealer."""
    dealers = set()
    for seed in range(40):
        state = new_game(options(), SEATS[:3], random.Random(seed))
        dealers.add(state.dealer)
        assert state.start_player == state.to_move == state.left_of(state.dealer)
    assert dealers == {"anna", "bert", "carla"}


def test_the_start_player_deals_the_next_round() -> None:
    """HB-1: in each following round the previous start player deals."""
    state = new_game(options(), SEATS[:3], random.Random(1))
    start = state.start_player
    deal_round(state, state.left_of(state.dealer), random.Random(2))
    assert state.dealer == start and state.start_player == state.left_of(start)


class ScriptedShuffle(random.Random):
    """The first ``bad`` shuffles of a two-player deal leave the start player without a
    cannon; with ``second_has_one`` the other player gets only cannons."""

    def __init__(self, bad: int, second_has_one: bool = False):
        super().__init__(0)
        self.bad = bad
        self.second_has_one = second_has_one

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        if not self.bad or len(x) < 20:
            super().shuffle(x)
            return
        self.bad -= 1
        cannons = [c for c in x if cards.kind(c) == "cannon"]
        others = [c for c in x if cards.kind(c) != "cannon"]
        second = cannons if self.second_has_one else others
        dealt = [card for _ in range(10) for card in (others.pop(), second.pop())]
        x[:] = cannons + others + dealt[::-1]  # the deal takes cards from the end


def test_start_player_without_a_cannon_gets_a_redeal() -> None:
    """HB-4, A-9: the first card must be a cannon; without one, the same dealer re-deals."""
    state = new_game(options(), SEATS[:2], ScriptedShuffle(bad=2))
    assert state.redeals == 2
    assert any(cards.kind(c) == "cannon" for c in state.hands[state.start_player])


def test_next_player_with_a_cannon_may_open_instead() -> None:
    """HB-4, option no_cannon_start = "next": the next player holding a cannon begins."""
    state = new_game(
        options(no_cannon_start="next"), SEATS[:2], ScriptedShuffle(bad=1, second_has_one=True)
    )
    assert state.redeals == 0
    assert state.start_player != state.left_of(state.dealer)


@pytest.mark.parametrize(
    ("count", "hand_size", "reason"),
    [(1, 10, "2 to 5 players"), (6, 10, "2 to 5 players"), (5, 14, "need more than")],
)
def test_start_refuses_tables_that_cannot_be_dealt(count: int, hand_size: int, reason: str) -> None:
    seats = [Seat(f"s{i}", f"S{i}") for i in range(count)]
    with pytest.raises(ValueError, match=reason):
        GAME.start(options(hand_size=hand_size), seats, random.Random(0))
