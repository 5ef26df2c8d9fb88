"""The longer texts for players: the rules in brief and the order format (HELP/HILFE).

The numbers come from the game's options, so a game with other settings explains itself
correctly, and the sample orders are the seat's own: his opponents, within his cartridges.
"""

from __future__ import annotations

from gm_daemon.games.highnoon.model import Options, State
from gm_daemon.games.highnoon.texts import say

_POSITIONS = (16, 12, 8, 4)  # what a sensible gunslinger might plan for one duel


def _tiebreak(options: Options, lang: str) -> str:
    if not options.tiebreak:
        return ""
    items = say(lang, "tiebreak.and").join(say(lang, f"tiebreak.{k}") for k in options.tiebreak)
    return say(lang, "tiebreak.then", items=items)


def rules_summary(options: Options, lang: str) -> str:
    return say(
        lang,
        "rules",
        life=options.life,
        p_per_duel=options.p_per_duel,
        penalty_0_duels=options.penalty_0_duels,
        penalty_1_duel=options.penalty_1_duel,
        tiebreak=_tiebreak(options, lang),
    )


def example_orders(state: State, seat: str, lang: str) -> str:
    """Orders this seat could send now: every opponent of the round, the cartridges shared
    out among them, and two challenges (the cap is never below two)."""
    if state.finished or not _playing(state, seat):
        return ""  # the game is over, or a reader who does not play (the web site)
    opponents = state.opponents(seat)
    budget = state.player(seat).cartridges
    lines = [say(lang, "word.duels")] if opponents else []
    for i, opponent in enumerate(opponents):
        share = min(len(_POSITIONS), budget // len(opponents) + (i < budget % len(opponents)))
        shots = ", ".join(map(str, _POSITIONS[:share])) or say(lang, "none")
        lines.append(f"{state.player(opponent).name}: {shots}")
    others = [p for p in state.playing() if p != seat]
    others.sort(key=lambda p: p in opponents)  # a new opponent first: what challenges are for
    others = [state.player(p).name for p in others[:2]]
    if others:
        lines.append(f"{say(lang, 'word.challenges')}: {', '.join(others)}")
    return "\n".join(lines)


def example_name(state: State, seat: str) -> str:
    """The name the order format's short examples use: the seat's first opponent, so the
    welcome speaks of the players he meets; "" when he has none."""
    opponents = state.opponents(seat) if _playing(state, seat) else []
    return state.player(opponents[0]).name if opponents else ""


def _playing(state: State, seat: str) -> bool:
    """Whether ``seat`` is a player still in the game (not one out, nor no player at all)."""
    return any(player.id == seat and player.active for player in state.players)


def order_format(example: str, lang: str, name: str = "") -> str:
    """The order format around ``example`` (the postal game's sample when it is empty);
    ``name`` is the opponent its short examples speak of (the sample's H. Glück without)."""
    return say(
        lang, "order_format", example=example or say(lang, "sample"), name=name or "H. Glück"
    )
