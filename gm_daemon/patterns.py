"""Regular expressions compiled when they are first used, not when their module is imported.

Every process compiles each module-level pattern anew (``re`` keeps no compiled patterns on
disk), and a ``run --once`` imports some sixty patterns of ours, ~50 M instructions. A
plain order mail needs about two thirds of them; the rest read quoted replies, encoded
words, PGP armour, absences, round headers, result mails, tables. Those are written with
``on_first_use`` and cost nothing until a mail or a result needs them.
"""

from __future__ import annotations

import re
from typing import Any


class _OnFirstUse:
    """Stands for ``re.compile(pattern, flags)`` and compiles it at the first attribute
    asked for. Each attribute (``search``, ``match``, ``pattern`` …) is kept on the object
    once asked for, so later uses cost what the compiled pattern's do: the object is only
    in the way for the first. A mistake in the pattern is raised at that first use."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self._compiled = re.compile(*self._source)
        value = getattr(compiled, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"on_first_use({self._source[0]!r}, {self._source[1]!r})"


def on_first_use(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when first used (see the module). Only for
    a module-level pattern that is used through its methods and attributes: ``re.sub(p,
    …)`` and ``isinstance(p, re.Pattern)`` want the compiled pattern itself."""
    return _OnFirstUse(pattern, int(flags))  # type: ignore[return-value]
