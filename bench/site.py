"""The static site's cost: rebuilding one game's pages after a resolution, and building the
whole site of many finished games.

Run by hand from the repository root (no mail stack needed; Maildir config, nothing sent):

    .venv/bin/python bench/site.py                 # 10-player game, 1 000 finished games
    .venv/bin/python bench/site.py --games 200     # a smaller site

* rebuild: a High Noon game of ten players resolves round after round
  (``Referee.resolve``, NMR for everyone); after each, ``SiteBuilder.game`` writes its
  changed pages and the index, as the daemon's hook does after a resolution. Printed:
  the rebuild's median and maximum beside the resolution's own (the baseline). Target
  ≤ 50 ms per rebuild.
* full site: GAMES High Noon games of three players (``life = 1``), each resolved until
  it is over, then ``SiteBuilder.everything`` (what ``gm-daemon site`` does) from a cold
  start. Target ≤ 60 s for 1 000. Then one game's pages and the index of them all again,
  as the daemon does after a change in a big club.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm_daemon.config import load_config  # noqa: E402
from gm_daemon.referee import Referee  # noqa: E402
from gm_daemon.site import SiteBuilder  # noqa: E402
from gm_daemon.store import Store  # noqa: E402

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


def config(folder: Path, games: list[tuple[str, int, str]]) -> Path:
    """A Maildir config of High Noon games: (id, players, options) each."""
    text = (
        f'[daemon]\ndatabase = "{folder / "gm.sqlite"}"\n\n'
        f'[mail]\naddress = "gm@example.org"\n\n'
        f'[mail.maildir]\ninbox = "{folder / "in"}"\noutbox = "{folder / "out"}"\n\n'
        f'[site]\ndir = "{folder / "site"}"\nurl = "https://club.example/gm/"\n\n'
    )
    for game_id, players, options in games:
        seats = "".join(
            f'[[games.players]]\nname = "Spieler {i}"\nemail = "p{i}@example.org"\n'
            for i in range(players)
        )
        text += (
            f'[[games]]\nid = "{game_id}"\nkind = "highnoon"\nseed = "{game_id}"\n'
            f'[games.deadlines]\nevery = "7d"\n[games.options]\n{options}\n{seats}\n'
        )
    path = folder / "gm.toml"
    path.write_text(text, encoding="utf-8")
    return path


def rebuild(folder: Path, rounds: int) -> None:
    path = config(folder, [("club", 10, "life = 12")])
    cfg = load_config(path)
    store = Store(cfg.daemon.database)
    referee = Referee(cfg, store, lambda: NOW)
    referee.sync()
    builder = SiteBuilder(cfg, store, clock=lambda: NOW)
    builder.everything()
    resolving, building = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        after = referee.resolve("club", "bench")
        resolved = time.perf_counter()
        builder.game("club")
        built = time.perf_counter()
        resolving.append(resolved - started)
        building.append(built - resolved)
        if after is None or after.row.finished:
            break
    print(
        f"rebuild after a resolution ({len(building)} rounds, 10 players): "
        f"median {statistics.median(building) * 1000:.1f} ms, max {max(building) * 1000:.1f} ms"
        f"  | resolution itself: median {statistics.median(resolving) * 1000:.1f} ms"
    )
    store.close()


def full_site(folder: Path, games: int) -> None:
    ids = [f"hn{n:04d}" for n in range(games)]
    path = config(folder, [(game_id, 3, "life = 1") for game_id in ids])
    cfg = load_config(path)
    store = Store(cfg.daemon.database)
    referee = Referee(cfg, store, lambda: NOW)
    started = time.perf_counter()
    referee.sync()
    for game_id in ids:
        for _ in range(20):
            after = referee.resolve(game_id, "bench")
            if after is None or after.row.finished:
                break
    finished = sum(row.finished for row in store.games())
    played = time.perf_counter() - started
    store.close()
    store = Store(cfg.daemon.database)  # a cold start, as gm-daemon site has
    started = time.perf_counter()
    builder = SiteBuilder(load_config(path), store, clock=lambda: NOW)
    count = builder.everything()
    took = time.perf_counter() - started
    again = []
    for game_id in ids[:20]:  # one game and the index of them all, as after a change
        begun = time.perf_counter()
        builder.game(game_id)
        again.append(time.perf_counter() - begun)
    files = sum(1 for p in (folder / "site").rglob("*") if p.is_file())
    print(
        f"full site: {count} games ({finished} finished), {files} files in {took:.1f} s "
        f"({took / max(count, 1) * 1000:.1f} ms per game)  | playing them: {played:.1f} s\n"
        f"one game and the index of all {count} again: median "
        f"{statistics.median(again) * 1000:.1f} ms"
    )
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of the full site")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of the rebuild bench")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as one:
        rebuild(Path(one), args.rounds)
    with tempfile.TemporaryDirectory() as two:
        full_site(Path(two), args.games)


if __name__ == "__main__":
    main()
