"""A report's private parts rendered when they are read, not before.

A result is rendered once per language in use, and each rendering would write every seat's
private part, though each player reads only his own in his own language: a round of 200
Hexenhalma players, half German and half English, wrote 400 fate lists of 199 pairings
each where 200 are sent. ``OnDemand`` is the ``Report.private`` that writes a seat's part
the first time it is asked for and keeps it; to everyone reading it, it is a mapping of
seat to text like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping


class OnDemand(Mapping[str, str]):
    def __init__(self, seats: Iterable[str], render: Callable[[str], str]):
        self._seats = list(dict.fromkeys(seats))
        self._known = set(self._seats)
        self._render = render
        self._done: dict[str, str] = {}

    def __getitem__(self, seat: str) -> str:
        if seat not in self._known:
            raise KeyError(seat)
        text = self._done.get(seat)
        if text is None:
            text = self._done[seat] = self._render(seat)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)

    def __repr__(self) -> str:
        return f"OnDemand({len(self._done)} of {len(self._seats)} rendered)"
