"""Building High Noon states and orders from the compact notation of the data files.

A player is written "D2 L8 P8" (wins, life, cartridges), an eliminated one with "out3" added
(eliminated in round 3). A duel is "a b" (two seat ids), a scripted roll "a@15": 1 inside the
duel it belongs to. Orders are mail texts, read by the real order reader.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from gm_daemon.games.highnoon.dice import ScriptedDice
from gm_daemon.games.highnoon.model import Options, Orders, Player, State
from gm_daemon.games.highnoon.orders import read_orders
from gm_daemon.games.highnoon.pairings import pair
from gm_daemon.games.protocol import Accepted, Line

HERE = Path(__file__).resolve().parent
_TOKEN = re.compile(r"^(D|L|P|out)(-?\d+)$")


def load_json(name: str) -> Any:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def counters(text: str) -> dict[str, int | None]:
    """ "D2 L8 P8 out3" -> {"wins": 2, "life": 8, "cartridges": 8, "eliminated_in_round": 3}."""
    fields = {"D": "wins", "L": "life", "P": "cartridges", "out": "eliminated_in_round"}
    values: dict[str, int | None] = {"eliminated_in_round": None}
    for token in text.split():
        match = _TOKEN.match(token)
        if match is None:
            raise ValueError(f"bad counter {token!r} in {text!r}")
        values[fields[match.group(1)]] = int(match.group(2))
    return values


def compact(player: Player) -> str:
    """The inverse of ``counters``, for comparing expected and actual players."""
    text = f"D{player.wins} L{player.life} P{player.cartridges}"
    if player.eliminated_in_round is not None:
        text += f" out{player.eliminated_in_round}"
    return text


def build_state(data: dict[str, Any]) -> State:
    """A state from a scenario: players (id -> "counters" or [name, "counters"]), pairings."""
    players = []
    for seat, spec in data["players"].items():
        name, text = (seat, spec) if isinstance(spec, str) else spec
        values = {"life": 12, **counters(text)}
        players.append(Player(id=seat, name=name, **values))
    return State(
        options=Options.model_validate(data.get("options", {})),
        round=data.get("round", 1),
        n0=data.get("n0", len(players)),
        players=players,
        pairings=sorted(pair(*duel.split()) for duel in data.get("pairings", [])),
    )


def lines_of(text: str) -> list[Line]:
    return [Line(no, line) for no, line in enumerate(text.split("\n"), start=1)]


def read(state: State, seat: str, text: str, lang: str = "de") -> Accepted[Orders]:
    return read_orders(lines_of(text), state, seat, lang)


def scripted_dice(rolls: dict[str, dict[str, int]]) -> ScriptedDice:
    """{"a b": {"a@15": 1}} -> dice keyed (shooter, opponent, position)."""
    script: dict[tuple[str, str, int], int] = {}
    for duel, by_shot in rolls.items():
        a, b = duel.split()
        for shot, roll in by_shot.items():
            shooter, position = shot.split("@")
            opponent = b if shooter == a else a
            if shooter not in (a, b):
                raise ValueError(f"{shooter} is not in the duel {duel!r}")
            script[(shooter, opponent, int(position))] = roll
    return ScriptedDice(script)


class FixedShuffle(random.Random):
    """A generator whose shuffle lays out a given order: the injected shuffle of TC-HN-4."""

    def __init__(self, order: list[str]):
        super().__init__(0)
        self._order = order

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        assert sorted(x) == sorted(self._order), "the injected order must name every seat"
        x[:] = self._order


def squash(text: str) -> str:
    """Whitespace collapsed: published lines are compared without the alignment padding."""
    return " ".join(text.split())


def random_orders(state: State, seat: str, rng: random.Random) -> Orders:
    """Legal orders a player might send: some of his cartridges spread over his duels at
    random positions, and up to his cap of challenges to random active players."""
    from gm_daemon.games.highnoon.rules import challenge_cap

    player = state.player(seat)
    opponents = state.opponents(seat)
    shots: dict[str, set[int]] = {}
    for _ in range(rng.randint(0, player.cartridges) if opponents else 0):
        target = rng.choice(opponents)
        shots.setdefault(target, set()).add(rng.randint(1, 19))
    others = [other for other in state.playing() if other != seat]
    count = rng.randint(0, min(challenge_cap(player), len(others)))
    return Orders(
        shots={target: sorted(ks, reverse=True) for target, ks in shots.items()},
        challenges=rng.sample(others, count),
    )
