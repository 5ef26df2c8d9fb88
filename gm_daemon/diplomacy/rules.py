"""Rule switches: which rulebook decides the questions the DATC leaves open.

``2023`` follows the DATC v3.0 preferences; ``2000`` ("die Hasbro-Regeln von 2000", what
Highlander names) follows the DATC v2.4 preferences where the two differ:

* convoy to an adjacent province: under 2000 an army that shows convoy intent (``via convoy``
  or a convoying fleet of its own power) falls back to the land route when no complete chain
  of convoy orders exists (DATC 6.G.8, v2.4); under 2023 it never falls back (6.G.8, 6.G.20).
* civil disorder removals (DATC 4.D.8, 6.J): under 2000 the distance is counted to the
  power's home centres, fleets moving by sea and armies over land and sea; under 2023 to the
  nearest owned centre, every unit moving over land and sea.

Both use the Szykman rule for convoy paradoxes. The full list of decisions is in
``docs/diplomacy.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

RULEBOOKS = ("2000", "2023")


@dataclass(frozen=True, slots=True)
class Rules:
    """How to adjudicate. The optional ``disorder_*`` fields override the rulebook's civil
    disorder rule for variants that define their own (Highlander counts to starting centres
    through any province and breaks ties by abbreviation)."""

    rulebook: str = "2023"
    build_anywhere: bool = False  # builds in any owned, empty centre (Highlander)
    disorder_distance_to: str | None = None  # "homes" | "owned"
    disorder_paths: str | None = None  # "by_unit" (fleets by sea) | "any"
    disorder_tiebreak: str = "name"  # alphabetical by English "name" or by "abbr"

    def __post_init__(self) -> None:
        if self.rulebook not in RULEBOOKS:
            raise ValueError(f"unknown rulebook {self.rulebook!r}; known: {', '.join(RULEBOOKS)}")
        if self.disorder_distance_to not in (None, "homes", "owned"):
            raise ValueError("disorder_distance_to must be 'homes' or 'owned'")
        if self.disorder_paths not in (None, "by_unit", "any"):
            raise ValueError("disorder_paths must be 'by_unit' or 'any'")
        if self.disorder_tiebreak not in ("name", "abbr"):
            raise ValueError("disorder_tiebreak must be 'name' or 'abbr'")

    @property
    def convoy_fallback(self) -> bool:
        """Whether an army with convoy intent but no ordered convoy chain goes by land."""
        return self.rulebook == "2000"

    @property
    def distance_to(self) -> str:
        return self.disorder_distance_to or ("homes" if self.rulebook == "2000" else "owned")

    @property
    def paths(self) -> str:
        return self.disorder_paths or ("by_unit" if self.rulebook == "2000" else "any")


STANDARD = Rules()  # the default: DATC v3.0 preferences, builds in home centres only
