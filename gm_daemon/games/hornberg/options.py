"""``[games.options]`` of a Hornberg game (spec §9).

The GM writes ``variant = "drunter-drueber"`` or ``"kreuz-quer"`` (the spec's short ``dd`` /
``kq`` work too); ``"kreuzer-quer"`` is Kreuz & Quer with the double-negative option on.
Unknown keys are refused so a typo in the config is reported instead of silently ignored.
Deadlines are the daemon's business (``[games.deadlines] turn = …``), not an option here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gm_daemon.games.hornberg.cards import (
    BEER_VALUES,
    DEFAULT_BEER_COUNTS,
    DEFAULT_COLOURS,
    PALETTE,
    colour_code,
)
from gm_daemon.games.text import fold

Variant = Literal["dd", "kq"]

_VARIANT_NAMES: dict[str, tuple[Variant, bool]] = {
    "dd": ("dd", False),
    "drunter-drueber": ("dd", False),
    "drunter & drueber": ("dd", False),
    "drunter-und-drueber": ("dd", False),
    "kq": ("kq", False),
    "kreuz-quer": ("kq", False),
    "kreuz & quer": ("kq", False),
    "kreuz-und-quer": ("kq", False),
    "kreuzer-quer": ("kq", True),
    "kreuzer & quer": ("kq", True),
}


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    variant: Variant
    beer_counts: tuple[int, ...] = DEFAULT_BEER_COUNTS
    colours: tuple[str, ...] = DEFAULT_COLOURS
    hand_size: int = Field(10, ge=1, le=20)
    kq_end_duke_sum: int = Field(30, ge=1)
    kq_target: int = Field(100, ge=1)
    kq_double_negative: bool = False
    kq_keg_reclaim: bool = False
    # Safety valve for email play: after this many rounds the highest total wins even if
    # nobody reached the target (0 = no limit, the rule text's reading).
    kq_max_rounds: int = Field(0, ge=0)
    dd_min_row_len: int = Field(1, ge=1)
    no_cannon_start: Literal["redeal", "next"] = "redeal"
    nmr_policy: Literal["autoplay", "skip"] = "autoplay"
    plans: bool = True

    @model_validator(mode="before")
    @classmethod
    def _variant_names(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
            return data
        key = fold(data["variant"]).strip()
        if key not in _VARIANT_NAMES:
            known = ", ".join(sorted(_VARIANT_NAMES))
            raise ValueError(f"variant {data['variant']!r} unknown; use one of: {known}")
        variant, double = _VARIANT_NAMES[key]
        data = {**data, "variant": variant}
        if double:
            data.setdefault("kq_double_negative", True)
        return data

    @field_validator("beer_counts", mode="before")
    @classmethod
    def _beer_table(cls, raw: Any) -> Any:
        """Accept the list form ``[1,2,3,…]`` or a table ``{0 = 1, 1 = 2, …}``."""
        if isinstance(raw, dict):
            counts = {int(k): int(v) for k, v in raw.items()}
            if set(counts) - set(BEER_VALUES):
                raise ValueError("beer values run from 0 to 8")
            return tuple(counts.get(v, 0) for v in BEER_VALUES)
        return raw

    @field_validator("beer_counts")
    @classmethod
    def _nine_counts(cls, counts: tuple[int, ...]) -> tuple[int, ...]:
        if len(counts) != len(BEER_VALUES) or any(n < 0 for n in counts):
            raise ValueError("beer_counts needs 9 counts >= 0, for the values 0 to 8")
        return counts

    @field_validator("colours")
    @classmethod
    def _palette_colours(cls, colours: tuple[str, ...]) -> tuple[str, ...]:
        """Colours by meaning: any spelling of either language ("ro", "re", "red", "rot")
        becomes the stored code; mails show it in the game's language (``cards.shown``)."""
        codes = tuple(colour_code(fold(c).strip()) or "" for c in colours)
        unknown = [c for c, code in zip(colours, codes, strict=True) if not code]
        if unknown:
            known = ", ".join(f"{c.code} ({c.de}/{c.en})" for c in PALETTE.values())
            raise ValueError(f"unknown colours {unknown}; choose from {known}")
        if len(set(codes)) != len(codes) or len(codes) < 2:
            raise ValueError("colours must be at least 2 different colours")
        return codes
