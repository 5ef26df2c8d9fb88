"""Parsed TOML files kept on disk (``gm_daemon.disk_cache.parsed_toml``): the phrase
catalogues and the config.

What comes from the cache must be what ``tomllib`` gives for the text, for every catalogue
the project ships and for the example config; and the cache must never be a way to fail or
to read the wrong thing: an edited, damaged or foreign file, a parse JSON cannot give back,
or a folder that cannot be written, means the text is parsed as before.
"""

from __future__ import annotations

import math
import stat
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from gm_daemon import disk_cache
from gm_daemon.config import ConfigError, load_config
from gm_daemon.games.kit.phrases import Phrases
from tests.core.cache_damage import damages

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "gm_daemon").rglob("phrases.toml"))
SHIPPED += sorted((ROOT / "config" / "examples").glob("*.toml"))
# What tomllib itself gives (the fixture ``parses`` counts the daemon's calls only)
_reference = tomllib.loads


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "gm-daemon" / "toml"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts ``tomllib`` is asked to parse (the cache is asked first)."""
    texts: list[str] = []

    def counted(text: str, **options: object) -> dict[str, object]:
        texts.append(text)
        return _reference(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(tomllib, "loads", counted)
    return texts


def _files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("source", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_kept_is_what_tomllib_gives(cache: Path, parses: list[str], source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    first = disk_cache.parsed_toml(text, source)
    again = disk_cache.parsed_toml(text, source)
    assert len(parses) == 1  # the second came from the file
    assert again == first == _reference(text)
    assert [type(v) for v in again.values()] == [type(v) for v in first.values()]
    [kept] = _files(cache)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # a config names players and codes
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700


def test_an_edited_file_is_parsed_again_and_replaces_its_old_one(
    cache: Path, parses: list[str], tmp_path: Path
) -> None:
    source = tmp_path / "phrases.toml"
    other = tmp_path / "elsewhere" / "phrases.toml"
    for text in ('[en]\nhi = "Hi"\n', '[en]\nhi = "Hello"\n', '[en]\nhi = "Hello"\n'):
        assert disk_cache.parsed_toml(text, source) == _reference(text)
    disk_cache.parsed_toml('[en]\nhi = "Hi"\n', other)  # another file keeps its own
    assert len(parses) == 3
    assert len(_files(cache)) == 2
    assert disk_cache.parsed_toml('[en]\nhi = "Hello"\n', source) == {"en": {"hi": "Hello"}}
    assert len(parses) == 3


@pytest.mark.parametrize(
    "spoil",
    [
        *damages(b"toml", tail=10),
        pytest.param(lambda data: data.replace(b"Hallo", b"Hallx"), id="changed, old checksum"),
    ],
)
def test_a_damaged_file_is_parsed_again_and_replaced(
    cache: Path, parses: list[str], tmp_path: Path, spoil: Callable[[bytes], bytes]
) -> None:
    text, source = '[de]\nhi = "Hallo"\n[en]\nhi = "Hello"\n', tmp_path / "p.toml"
    disk_cache.parsed_toml(text, source)
    [kept] = _files(cache)
    kept.write_bytes(spoil(kept.read_bytes()))
    assert disk_cache.parsed_toml(text, source) == _reference(text)
    assert len(parses) == 2
    assert _files(cache) == [kept]  # written anew, no temporary file left
    assert disk_cache.parsed_toml(text, source) == _reference(text)
    assert len(parses) == 2


def test_a_file_others_can_write_is_not_read(
    cache: Path, parses: list[str], tmp_path: Path
) -> None:
    """A player's text comes from it: only a file this user alone can write is read."""
    text, source = '[en]\nhi = "Hello"\n', tmp_path / "p.toml"
    disk_cache.parsed_toml(text, source)
    [kept] = _files(cache)
    kept.chmod(0o666)
    assert disk_cache.parsed_toml(text, source) == {"en": {"hi": "Hello"}}
    assert len(parses) == 2
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # replaced by a file of our own


@pytest.mark.parametrize(
    "text",
    [
        "[game]\nstart = 2026-11-28T03:00:00Z\n",
        "[game]\nday = 2026-11-28\n",
        "[game]\nodd = nan\n",
    ],
    ids=["datetime", "date", "nan"],
)
def test_what_json_cannot_give_back_is_parsed_every_time(
    cache: Path, parses: list[str], tmp_path: Path, text: str
) -> None:
    for _ in range(2):
        parsed = disk_cache.parsed_toml(text, tmp_path / "gm.toml")
        [value] = parsed["game"].values()
        expected = _reference(text)["game"]
        assert type(value) is type(*expected.values())
        if not (isinstance(value, float) and math.isnan(value)):
            assert parsed["game"] == expected
    assert len(parses) == 2
    assert _files(cache) == []


def test_invalid_toml_fails_as_ever_and_is_not_kept(cache: Path, tmp_path: Path) -> None:
    config = tmp_path / "gm.toml"
    config.write_text('[daemon]\nname = "unclosed\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML: "):
        load_config(config)
    with pytest.raises(tomllib.TOMLDecodeError):
        disk_cache.parsed_toml(config.read_text(encoding="utf-8"), config)
    assert _files(cache) == []


@pytest.mark.parametrize("where", ["under a file", "relative"])
def test_no_usable_folder_parses_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("")
    if where == "relative":
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
        monkeypatch.setenv("HOME", str(blocker))
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "phrases.toml"
    source.write_text('[de]\nhi = "Grüß dich"\n[en]\nhi = "Hi"\n', encoding="utf-8")
    assert Phrases.load(source)("de", "hi") == "Grüß dich"
    assert not (tmp_path / "relative").exists()
    assert [r for r in caplog.records if r.levelname != "DEBUG"] == []


def test_the_key_holds_python_s_version(
    cache: Path, parses: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another Python's ``tomllib`` might read a text otherwise: it never sees this one's."""
    text, source = '[en]\nhi = "Hello"\n', tmp_path / "p.toml"
    disk_cache.parsed_toml(text, source)
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    disk_cache.parsed_toml(text, source)
    assert len(parses) == 2


def test_the_folder_keeps_the_newest_files_only(
    cache: Path, parses: list[str], tmp_path: Path
) -> None:
    """Configs tried once from everywhere (``check``) must not fill the folder."""
    sources = [tmp_path / f"club{n}" / "gm.toml" for n in range(disk_cache.TOML_KEPT + 8)]
    for n, source in enumerate(sources):
        disk_cache.parsed_toml(f"n = {n}\n", source)
    assert len(_files(cache)) == disk_cache.TOML_KEPT
    last = len(sources) - 1
    assert disk_cache.parsed_toml(f"n = {last}\n", sources[last]) == {"n": last}
    assert len(parses) == len(sources)  # the newest was kept
