"""The printed Kreuz & Quer window and its cell labels (§6.3).

The window is the bounding box of the cards, widened by one column on each side while the
width is below 6 and by one row above and below while the height is below 3, so it holds
every cell a cannon may reach this turn. Rows are lettered from the top, columns numbered
from the left. Labels therefore change as the table grows: they are valid for one turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gm_daemon.games.hornberg.kq import HEIGHT, WIDTH, XY, bbox
from gm_daemon.games.hornberg.model import Table

_LABEL = re.compile(r"^([a-z])([0-9]+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Window:
    x0: int
    y0: int
    width: int
    height: int

    def label(self, xy: XY) -> str:
        return f"{chr(ord('A') + xy[1] - self.y0)}{xy[0] - self.x0 + 1}"

    def row_label(self, y: int) -> str:
        return chr(ord("A") + y - self.y0)

    def column_label(self, x: int) -> str:
        return str(x - self.x0 + 1)

    def cell(self, label: str) -> XY | None:
        """The grid cell a printed label names, or None outside the window."""
        match = _LABEL.match(label.strip())
        if not match:
            return None
        row = ord(match[1].upper()) - ord("A")
        column = int(match[2]) - 1
        if not (0 <= row < self.height and 0 <= column < self.width):
            return None
        return (self.x0 + column, self.y0 + row)

    def cells(self) -> list[list[XY]]:
        return [[(self.x0 + i, self.y0 + j) for i in range(self.width)] for j in range(self.height)]


def window(table: Table) -> Window:
    """The window of this table; an empty table shows the single cell A1 at (0, 0)."""
    box = bbox([c.xy for c in table.cells])
    if box is None:
        return Window(0, 0, 1, 1)
    x0, y0, x1, y1 = box
    if x1 - x0 + 1 < WIDTH:
        x0, x1 = x0 - 1, x1 + 1
    if y1 - y0 + 1 < HEIGHT:
        y0, y1 = y0 - 1, y1 + 1
    return Window(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
