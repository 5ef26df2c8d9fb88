"""``json_attachment`` writes with orjson what players have always got from
``json.dumps(ensure_ascii=False, indent=2, sort_keys=True)``: byte for byte, over every
public state (and every part ``mail_state`` splits off) that the conformance plays of each
kind produce, umlauts and nested lists included."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_daemon import games
from gm_daemon.mail.compose import json_attachment
from tests.conformance.test_conformance import play, start


def states(kind: str) -> list[Any]:
    engine, state, seats = start(kind)
    found = [engine.public_state(state)]
    for step in play(kind):
        found.append(engine.public_state(step.resolution.state))
        split = getattr(engine, "mail_state", None)
        if split is not None:
            shared, own = split(step.resolution.state, [s.id for s in seats])
            found += [shared, *own.values()]
    return found


@pytest.mark.parametrize("kind", sorted(games.available_kinds()))
def test_the_same_bytes_as_json_dumps(kind: str) -> None:
    for data in [*states(kind), {"name": "Jürgen Groß", "list": [], "map": {}, "n": -1.5}]:
        expected = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        assert json_attachment("x.json", data).data == expected.encode("utf-8")
