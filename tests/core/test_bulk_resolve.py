"""``gm-daemon resolve`` for several games at once: named, or every game due before a time."""

from __future__ import annotations

import pytest

from tests.core import guessgame
from tests.core.test_daemon_flow import GAMES
from tests.daemon_harness import DaemonHarness

THREE = "".join(GAMES.replace('id = "g1"', f'id = "{g}"') for g in ("g1", "g2", "g3"))


@pytest.fixture
def h(tmp_path) -> DaemonHarness:
    harness = DaemonHarness(tmp_path, THREE)
    harness.run()  # started at 2026-12-01 12:00 local, deadlines 2026-12-03 12:00
    return harness


def _phases(h: DaemonHarness) -> dict[str, int]:
    return {g: h.phase(g) for g in ("g1", "g2", "g3")}


def test_named_games_are_resolved_and_each_reported_as_alone(h: DaemonHarness) -> None:
    code, out = h.cli("resolve", "--game", "g1", "--game", "g3")
    assert code == 0 and _phases(h) == {"g1": 2, "g2": 1, "g3": 2}
    alone = h.cli("resolve", "--game", "g2")[1]
    assert out.replace("g3", "g2").splitlines()[2:] == alone.splitlines()
    assert out.count("resolved; result mails queued") == 2
    results = h.run()
    assert sorted(m["X-GM-Game"] for m in results) == ["g1", "g1", "g2", "g2", "g3", "g3"]


def test_due_before_takes_every_running_game_with_an_earlier_deadline(h: DaemonHarness) -> None:
    assert h.cli("extend", "--game", "g2", "--by", "3d")[0] == 0
    assert h.cli("pause", "--game", "g3")[0] == 0
    code, out = h.cli("resolve", "--due-before", "2026-12-04T18:00")
    assert code == 0 and _phases(h) == {"g1": 2, "g2": 1, "g3": 1}
    assert out.startswith("g1: ")
    code, out = h.cli("resolve", "--due-before", "2026-12-03T11:59")
    assert code == 0 and out == "no running game has its deadline before 2026-12-03T11:59\n"


def test_an_unknown_game_stops_the_command_before_anything_is_resolved(
    h: DaemonHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    assert h.cli("resolve", "--game", "g1", "--game", "g9")[0] == 1
    assert "no game 'g9'" in capsys.readouterr().err
    assert _phases(h) == {"g1": 1, "g2": 1, "g3": 1}
    assert h.cli("resolve")[0] == 1
    assert "--due-before" in capsys.readouterr().err


def test_one_transaction_per_game_a_failing_game_leaves_the_others_resolved(
    h: DaemonHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = guessgame.GuessGame.resolve
    calls: list[int] = []

    def second_fails(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("engine bug")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(guessgame.GuessGame, "resolve", second_fails)
    code, out = h.cli("resolve", "--game", "g1", "--game", "g2", "--game", "g3")
    assert code == 1 and "g2: resolving failed, nothing changed: RuntimeError" in out
    assert _phases(h) == {"g1": 2, "g2": 1, "g3": 2}
