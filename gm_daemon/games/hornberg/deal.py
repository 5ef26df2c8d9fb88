"""Starting the game and each round: dealer, shuffle, hands, pile, D&D base dukes (HB-1,
HB-2, HB-4, DD-1, KQ-1). All randomness comes from the ``random.Random`` handed in."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.model import Row, SeatInfo, State, Table
from gm_daemon.games.hornberg.options import Options

MIN_SEATS, MAX_SEATS = 2, 5
MAX_REDEALS = 100  # a start hand without a cannon has a chance of about 1e-4


def check_seats(options: Options, seats: Sequence[SeatInfo]) -> None:
    """Raise ValueError with a GM-readable reason when the table cannot be dealt."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(f"Hornberg needs 2 to 5 players, not {len(seats)}")
    if len({s.id for s in seats}) != len(seats):
        raise ValueError("two players share a seat id")
    deck = hand_deck(options)
    if options.hand_size * len(seats) > len(deck):
        raise ValueError(
            f"{len(seats)} hands of {options.hand_size} need more than the {len(deck)} cards"
        )
    if not any(cards.kind(c) == "cannon" for c in deck):
        raise ValueError("the deck holds no cannon")


def hand_deck(options: Options) -> list[str]:
    if options.variant == "dd":
        return cards.dd_deck(options.colours, options.beer_counts)
    return cards.full_deck(options.colours, options.beer_counts)


def new_game(options: Options, seats: Sequence[SeatInfo], rng: random.Random) -> State:
    check_seats(options, seats)
    dealer = rng.choice(list(seats)).id  # HB-1: the first dealer is drawn by lot
    state = State(
        options=options,
        seats=list(seats),
        dealer=dealer,
        start_player=dealer,
        hands={},
        pile=[],
        totals={s.id: 0 for s in seats},
    )
    deal_round(state, dealer, rng)
    return state


def deal_round(state: State, dealer: str, rng: random.Random) -> None:
    """Clear the table and deal a new round; re-deal while the start player has no cannon
    (A-9), or with ``no_cannon_start = "next"`` let the next player holding one open."""
    state.dealer = dealer
    state.table = Table()
    state.out = []
    state.out_of_game = []
    if state.variant == "dd":
        _lay_base_dukes(state, rng)
    for redeal in range(MAX_REDEALS):
        _shuffle_and_deal(state, dealer, rng)
        opener = _opener(state)
        if opener is not None:
            state.start_player = opener
            state.to_move = opener
            state.redeals = redeal
            return
    raise RuntimeError("no cannon reached an opener in 100 deals")


def _lay_base_dukes(state: State, rng: random.Random) -> None:
    """DD-1: three of the dukes 4–9, shuffled apart, become the bases of rows I–III."""
    dukes = [cards.duke(v) for v in cards.DD_BASE_DUKES]
    rng.shuffle(dukes)
    state.table.rows = [Row(base=cards.value(d)) for d in dukes[:3]]
    state.out_of_game = dukes[3:]


def _shuffle_and_deal(state: State, dealer: str, rng: random.Random) -> None:
    deck = hand_deck(state.options)
    rng.shuffle(deck)
    order = _seats_from(state, state.left_of(dealer))
    hands: dict[str, list[str]] = {seat: [] for seat in order}
    for _ in range(state.options.hand_size):
        for seat in order:
            hands[seat].append(deck.pop())
    state.hands = {seat: hands.get(seat, []) for seat in state.seat_ids}
    state.pile = deck
    state.discarded = []


def _seats_from(state: State, first: str) -> list[str]:
    ids = state.playing_ids
    start = ids.index(first)
    return ids[start:] + ids[:start]


def _opener(state: State) -> str | None:
    """HB-4: the first card must be a cannon. The start player sits left of the dealer."""
    first = state.left_of(state.dealer)
    candidates = [first]
    if state.options.no_cannon_start == "next":
        candidates = _seats_from(state, first)
    for seat in candidates:
        if any(cards.kind(c) == "cannon" for c in state.hands[seat]):
            return seat
    return None
