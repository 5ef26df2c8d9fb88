"""The High Noon example, the config the README walks a new GM through: its one game, and
its deadlines at a sensible hour. What every example shares (valid, ``check``, the production
block, the first phase played) is tests/test_config_examples.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from gm_daemon.config import load_config
from gm_daemon.deadlines import next_deadline

EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "examples" / "highnoon.toml"


def test_the_example_config_is_valid() -> None:
    config = load_config(EXAMPLE)
    assert [g.id for g in config.games] == ["hn1"]


def test_the_example_deadlines_fall_at_six_in_the_evening() -> None:
    config = load_config(EXAMPLE)
    game, tz = config.games[0], config.daemon.tz
    for start in (
        datetime(2026, 12, 1, 3, 17, tzinfo=UTC),
        datetime(2027, 7, 9, 22, 5, tzinfo=UTC),
    ):
        deadline = next_deadline(game.deadlines, "round", start, tz).astimezone(tz)
        assert (deadline.hour, deadline.minute) == (18, 0)
        assert (deadline - start).total_seconds() >= 24 * 3600
