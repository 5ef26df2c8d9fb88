"""How long one Highlander map picture takes (run by hand: python bench/highlander/bench_map.py).

Prints the first render (which builds the drawing once per process) and the mean of the next
renders of a busy mid-game view, beside the PNG encoding alone as a baseline.
"""

from __future__ import annotations

import time

from PIL import Image

from gm_daemon.diplomacy import standard_board
from gm_daemon.games.highlander import picture
from gm_daemon.games.highlander.mapview import MapArrow, MapUnit, MapView
from gm_daemon.games.kit.picture import png_bytes


def busy_view() -> MapView:
    board = standard_board()
    centres = sorted(board.names[p] for p in board.supply_centers)
    owners: dict[str, int | None] = {c: i % 3 if i % 3 < 2 else None for i, c in enumerate(centres)}
    units = [MapUnit(i % 2, "A", c) for i, c in enumerate(centres[:30])]
    arrows = [MapArrow("move", u.location, "BOH", failed=i % 3 == 0) for i, u in enumerate(units)]
    return MapView("Highlander 1905 Herbst", ("Anna", "Bernd"), owners, units, arrows)


def main() -> None:
    view = busy_view()
    start = time.perf_counter()
    data = picture.render_map(view)
    first = time.perf_counter() - start
    rounds = 20
    start = time.perf_counter()
    for _ in range(rounds):
        picture.render_map(view)
    mean = (time.perf_counter() - start) / rounds
    blank = Image.new("RGB", picture.size(), (255, 255, 255))
    start = time.perf_counter()
    for _ in range(rounds):
        png_bytes(blank)
    encode = (time.perf_counter() - start) / rounds
    print(f"first render {first * 1000:.0f} ms (builds the drawing), then {mean * 1000:.0f} ms")
    print(f"baseline: PNG encoding of a blank picture of the same size {encode * 1000:.0f} ms")
    print(f"size {picture.size()}, {len(data)} bytes")


if __name__ == "__main__":
    main()
