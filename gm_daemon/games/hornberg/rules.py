"""The rules both games share (HB-3, HB-4): a play is one card from the player's own hand,
legal on the table of the variant being played. Dispatches to ``dd`` or ``kq``."""

from __future__ import annotations

from types import ModuleType

from gm_daemon.games.hornberg import cards, dd, kq
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.play import Move, Refusal


def variant(state: State) -> ModuleType:
    return dd if state.variant == "dd" else kq


def in_hand(state: State, seat: str, card: str) -> bool:
    return card in state.hands.get(seat, [])


def refusal(state: State, seat: str, move: Move) -> Refusal | None:
    """Why this seat may not make this play now, or None if it may."""
    if not in_hand(state, seat, move.card):
        return Refusal("not_in_hand", {"card": move.card})
    return variant(state).refusal(state, move)


def legal_moves(state: State, seat: str) -> list[Move]:
    return variant(state).legal_moves(state, state.hands.get(seat, []))


def can_play(state: State, seat: str) -> bool:
    hand = state.hands.get(seat, [])
    return bool(hand) and variant(state).can_play(state, hand)


def apply(state: State, seat: str, move: Move) -> dict[str, object]:
    """Play the card from the hand onto the table; the move must be legal."""
    state.hands[seat].remove(move.card)
    return variant(state).apply(state, seat, move)


def leave(state: State, seat: str) -> State:
    """HB: a player who leaves is skipped from now on; his hand leaves the game face down,
    his points stay. On turn, the turn passes to the next seat that can play; when none
    can, it stays with him and the next resolution skips it (ending the round)."""
    new = State.model_validate(state.model_dump())
    if seat in new.left or new.finished:
        return new
    new.left.append(seat)
    new.discarded += new.hands.get(seat, [])
    new.hands[seat] = []
    if new.to_move == seat:
        after = new.left_of(seat)
        for _ in new.playing_ids:
            if after not in new.out and can_play(new, after):
                new.to_move = after
                break
            after = new.left_of(after)
    return new


def round_over(state: State) -> bool:
    """The end checked after every play: DD-8 (a) two complete rows, KQ-8 (a) dukes >= 30."""
    return variant(state).round_over(state)


def table_cards(state: State) -> list[str]:
    """Every card on the table (and in K&Q players' areas and collected piles)."""
    table = state.table
    found: list[str] = []
    for row in table.rows:
        found.append(cards.duke(row.base))
        found += [cards.duke(v) for v in (*row.extenders, *row.shorteners)]
        for stack in row.stacks:
            found += [stack.cannon] + ([stack.beer] if stack.beer else [])
    for cell in table.cells:
        found += [cell.cannon] + ([cell.beer] if cell.beer else [])
    for won in table.collected.values():
        found += won
    for dukes in table.dukes.values():
        found += dukes
    return found


def all_cards(state: State) -> list[str]:
    """Hands + pile + table + collected + out of the game: always the whole box (66)."""
    in_hands = [c for hand in state.hands.values() for c in hand]
    return [*in_hands, *state.pile, *table_cards(state), *state.out_of_game, *state.discarded]
