"""``OnDemand``: a seat's private part is rendered the first time it is read, once, and
only for seats it was made with; otherwise it reads like the dict it stands for."""

from __future__ import annotations

import pytest

from gm_daemon.games.kit.ondemand import OnDemand
from gm_daemon.games.protocol import Report
from gm_daemon.mailer import with_private


def test_rendered_when_read_once_and_only_for_its_seats() -> None:
    asked: list[str] = []

    def render(seat: str) -> str:
        asked.append(seat)
        return f"nur für {seat}"

    private = OnDemand(["anna", "bert", "carla", "anna"], render)
    assert list(private) == ["anna", "bert", "carla"] and len(private) == 3
    assert with_private(Report(public="Stand\n", private=private), "bert") == (
        "Stand\n\nnur für bert\n"
    )
    assert private["bert"] == "nur für bert" and private.get("dora") is None
    assert asked == ["bert"]
    assert private == {s: f"nur für {s}" for s in ("anna", "bert", "carla")}
    assert asked == ["bert", "anna", "carla"]
    with pytest.raises(KeyError):
        private["dora"]
