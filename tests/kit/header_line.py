"""A round game's mail read as the daemon's header step hands it on (``guards.ReadBody``,
``loaded.header_line``): a header alone is dropped, the orders after the current round's
header are kept under the line's number, another round's header makes the mail stale. The
games' case lists use it to check their own orders on the header's line."""

from __future__ import annotations

from typing import Any

from gm_daemon.games.protocol import Accepted, Header, Line, OrdersRejected


def read_mail(game: Any, text: str, state: Any, seat: str, lang: str) -> Accepted[Any] | str:
    """The orders read, "stale", or the refusal as "line N: message" for each problem."""
    lines = []
    for no, written in enumerate(text.splitlines(), start=1):
        header = game.read_header(written, state)
        if header is Header.OTHER:
            return "stale"
        rest = written if header is None else game.orders_after_header(written, state)
        if rest:
            lines.append(Line(no, rest))
    try:
        return game.read_orders(lines, state, seat, lang)
    except OrdersRejected as refused:
        return "; ".join(f"line {p.line}: {p.message}" for p in refused.problems)


def check(game: Any, state: Any, seat: str, lang: str, mail: str, expected: str) -> None:
    """``expected`` is "stale", a refusal ("line 1: …") or a mail without the header on the
    orders' line (on a line of its own, or left out), whose orders the mail must give."""
    read = read_mail(game, mail, state, seat, lang)
    if expected == "stale" or expected.startswith("line "):
        assert read == expected
        return
    alone = read_mail(game, expected, state, seat, lang)
    assert not isinstance(read, str) and not isinstance(alone, str), (read, alone)
    # as the acknowledgement says them: orders may keep their line's number
    said = (game.describe_orders(state, seat, r.orders, lang) for r in (read, alone))
    assert next(said) == next(said)
