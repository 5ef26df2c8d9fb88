"""``gm-daemon diplomacy adjudicate [FILE]``, driven through ``main``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gm_daemon.diplomacy.cli import main

PHASE = {
    "phase": "movement",
    "units": {"England": ["F LON", "A YOR"], "France": ["F BRE"]},
    "orders": {"England": ["F LON - ENG", "A YOR - LON"], "France": ["F BRE - ENG"]},
    "rules": {"rulebook": "2000"},
}


def test_reads_a_file_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(PHASE), encoding="utf-8")
    assert main(["adjudicate", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["result"] for o in out["orders"]] == ["fails", "fails", "fails"]
    assert out["orders"][1]["reason"] == "F LON did not move away"
    assert out["units"] == {"England": ["F LON", "A YOR"], "France": ["F BRE"]}
    assert out["contested"] == ["ENG"]


def test_reads_stdin_and_answers_a_batch_in_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = {**PHASE, "orders": {}}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps([PHASE, quiet])))
    assert main(["adjudicate", "--compact"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n") == 1
    first, second = json.loads(text)
    assert len(first["orders"]) == 3
    assert [o["normalized"] for o in second["orders"]] == ["F LON H", "A YOR H", "F BRE H"]


def test_a_bad_phase_gives_an_error_entry_and_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"phase": "movement", "units": {"France": ["A NTH"]}}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps([PHASE, bad])))
    assert main(["adjudicate"]) == 1
    captured = capsys.readouterr()
    results = json.loads(captured.out)
    assert results[1] == {"error": "units of France: A cannot stand in NTH"}
    assert "phase 2: units of France" in captured.err


def test_input_that_is_not_json_or_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{nope"))
    assert main(["adjudicate"]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["adjudicate", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"phase": "movement", "units": {"Österreich": []}}'.encode("latin-1"))
    assert main(["adjudicate", str(latin1)]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_usage_without_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert "adjudicate" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "layout"),
    [([], {"indent": 2}), (["--compact"], {"separators": (",", ":")})],
)
def test_the_output_is_what_json_dumps_writes(
    flags: list[str],
    layout: dict,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The documented layout, umlauts as they are, whichever encoder writes it."""
    german = {**PHASE, "orders": {"England": ["F LON - ENG", "A YOR - München"]}}
    batch = [PHASE, german, {"phase": "movement", "units": {"Frankreich": ["A NTH"]}}]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(batch)))
    assert main(["adjudicate", *flags]) == 1
    text = capsys.readouterr().out
    results = json.loads(text)
    assert "München" in results[1]["orders"][1]["order"]
    assert results[2] == {"error": "units of Frankreich: A cannot stand in NTH"}
    assert text == json.dumps(results, ensure_ascii=False, **layout) + "\n"
