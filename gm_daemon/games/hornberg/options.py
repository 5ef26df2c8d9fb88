"""``[games.options]`` of a Hornberg game (spec §9).

The GM writes ``variant = "drunter-drueber"`` or ``"kreuz-quer"`` (the spec's short ``dd`` /
``kq`` work too); ``"kreuzer-quer"`` is Kreuz & Quer with the double-negative option on.
Unknown keys are refused so a typo in the config is reported instead of silently ignored.
Deadlines are the daemon's business (``[games.deadlines] turn = …``), not an option here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gm_daemon.games.hornberg.cards import (
    BEER_VALUES,
    DEFAULT_BEER_COUNTS,
    DEFAULT_COLOURS,
    PALETTE,
    colour_code,
)
from gm_daemon.games.protocol import Shape
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

    variant: Annotated[
        Variant, Shape('one of "drunter-drueber" ("dd"), "kreuz-quer" ("kq"), "kreuzer-quer"')
    ] = Field(
        description="Which of the two games is played: `drunter-drueber` (or `dd`) for "
        "Drunter & Drüber, `kreuz-quer` (or `kq`) for Kreuz & Quer, `kreuzer-quer` for "
        "Kreuz & Quer with the option Kreuzer & Quer (`kq_double_negative`).",
        examples=["drunter-drueber", "kreuz-quer", "kreuzer-quer"],
    )
    beer_counts: tuple[int, ...] = Field(
        DEFAULT_BEER_COUNTS,
        description="How many beer cards of each value 0 to 8 the deck holds (nine counts). "
        "The rules do not say; the default is a guess to be checked against a physical copy. "
        "Also as a table `{0 = 1, 1 = 2, …}`.",
        examples=[[2, 2, 3, 3, 3, 3, 2, 2, 1]],
    )
    colours: tuple[str, ...] = Field(
        DEFAULT_COLOURS,
        description="The six cannon colours, from the palette ro ge bl gr sw ws li or br "
        "(red, yellow, blue, green, black, white, purple, orange, brown), in either "
        'language (`"rot"`, `"red"`, `"re"` are all red). The rules name only red, '
        "yellow and blue. The order is the colour order of the NMR auto-play.",
        examples=[["ro", "ge", "bl", "li", "or", "br"]],
    )
    hand_size: int = Field(
        10, ge=1, le=20, description="Cards dealt to each player's hand.", examples=[8]
    )
    kq_end_duke_sum: int = Field(
        30,
        ge=1,
        description="Kreuz & Quer: a round ends when the dukes lying face up in the players' "
        "areas add up to at least this.",
        examples=[25],
    )
    kq_target: int = Field(
        100,
        ge=1,
        description="Kreuz & Quer: the game ends after the round in which a player's total "
        "reaches this; the highest total wins.",
        examples=[60],
    )
    kq_double_negative: bool = Field(
        False,
        description="The option Kreuzer & Quer: at the end of a round, a colour whose "
        "1-cannon is still on the table counts its negative points double.",
        examples=[True],
    )
    kq_keg_reclaim: bool = Field(
        False,
        description="Kreuz & Quer: when a cleared colour comes back onto the table, its "
        "powder keg moves to the player who brings it back. Default: a keg stays with the "
        "player who first brought its colour, for the whole round.",
        examples=[True],
    )
    kq_max_rounds: int = Field(
        0,
        ge=0,
        description="Kreuz & Quer: after this many rounds the highest total wins even if "
        "nobody has reached `kq_target`. 0: no limit, as in the rules.",
        examples=[6],
    )
    dd_min_row_len: int = Field(
        1,
        ge=1,
        description="Drunter & Drüber: the shortest length dukes may shorten a row to (never "
        "shorter than the cannons already in it).",
        examples=[2],
    )
    no_cannon_start: Literal["redeal", "next"] = Field(
        "redeal",
        description="When the start player holds no cannon: `redeal` (the dealer deals "
        "again) or `next` (the next player holding a cannon opens).",
        examples=["next"],
    )
    nmr_policy: Literal["autoplay", "skip"] = Field(
        "autoplay",
        description="What happens when a player misses his turn's deadline: `autoplay` (the "
        "GM plays his lowest legal card by a fixed rule, announced as NMR) or `skip` (the "
        "turn passes without a card).",
        examples=["skip"],
    )
    plans: bool = Field(
        True,
        description="Players not on turn may send a PLAN (plays in order of preference, "
        "used when their turn comes) or a DAUERPLAN (kept until withdrawn). `false`: only "
        "the player on turn may send a play.",
        examples=[False],
    )

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
