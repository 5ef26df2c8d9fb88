from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gm_daemon.config import Deadlines, parse_duration
from gm_daemon.deadlines import local_text, next_deadline

BERLIN = ZoneInfo("Europe/Berlin")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7d", timedelta(days=7)),
        ("24h", timedelta(hours=24)),
        ("1d12h", timedelta(hours=36)),
        ("90m", timedelta(minutes=90)),
        ("1w", timedelta(days=7)),
    ],
)
def test_durations(text, expected):
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "7", "seven days", "0h", "3x"])
def test_bad_durations_are_rejected_with_an_example(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_every_counts_from_the_start_of_the_phase():
    spec = Deadlines(every="3d")
    assert next_deadline(spec, "round", at("2026-12-01T12:00"), BERLIN) == at("2026-12-04T12:00")


def test_grid_gives_the_first_deadline_then_steps():
    spec = Deadlines(first=datetime(2026, 12, 4, 18, 0), every="7d")
    assert next_deadline(spec, "round", at("2026-12-01T09:00"), BERLIN) == at("2026-12-04T18:00")
    # resolved at the deadline: the next grid point
    assert next_deadline(spec, "round", at("2026-12-04T18:00"), BERLIN) == at("2026-12-11T18:00")


def test_grid_skips_a_point_closer_than_min_notice():
    spec = Deadlines(first=datetime(2026, 12, 4, 18, 0), every="7d", min_notice="24h")
    # resolved early on Thursday evening: Friday is too close, the round runs a week more
    assert next_deadline(spec, "round", at("2026-12-10T20:00"), BERLIN) == at("2026-12-18T18:00")


def test_grid_keeps_local_wall_clock_across_daylight_saving():
    spec = Deadlines(first=datetime(2027, 3, 19, 18, 0), every="7d")
    deadline = next_deadline(spec, "round", at("2027-03-19T18:00"), BERLIN)
    assert deadline.astimezone(BERLIN).hour == 18  # CET -> CEST on 2027-03-28 is crossed later
    later = next_deadline(spec, "round", at("2027-03-26T18:00"), BERLIN)
    assert later.astimezone(BERLIN) == at("2027-04-02T18:00")
    assert later.astimezone(BERLIN).utcoffset() == timedelta(hours=2)


def test_cron_fires_every_friday_evening():
    spec = Deadlines(cron="0 18 * * fri")
    deadline = next_deadline(spec, "round", at("2026-12-01T12:00"), BERLIN)
    assert deadline.astimezone(BERLIN) == at("2026-12-04T18:00")


def test_a_phase_type_length_wins_over_the_grid():
    spec = Deadlines.model_validate({"every": "7d", "turn": "48h"})
    start = at("2026-12-01T12:00")
    assert next_deadline(spec, "turn", start, BERLIN) == at("2026-12-03T12:00")
    assert next_deadline(spec, "round", start, BERLIN) == at("2026-12-08T12:00")


def test_deadline_text_names_zone_and_offset():
    moment = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    assert local_text(moment, BERLIN, "de") == "Fr 2026-12-04 18:00 CET (UTC+01:00)"
    assert local_text(moment, BERLIN, "en") == "Fri 2026-12-04 18:00 CET (UTC+01:00)"
