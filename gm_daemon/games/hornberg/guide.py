"""The help text (the order format of the game's variant and options) and the short rules
sent with the welcome."""

from __future__ import annotations

from gm_daemon.games.hornberg import cards
from gm_daemon.games.hornberg.describe import example_orders
from gm_daemon.games.hornberg.model import State
from gm_daemon.games.hornberg.texts import say


def order_format(state: State, lang: str) -> str:
    """The order format of this game: its variant, plans only where allowed, its NMR rule."""
    parts = ["head", state.variant]
    parts += [f"plan_{state.variant}"] if state.options.plans else []
    policy = state.options.nmr_policy
    parts += [f"autoplay_{state.variant}" if policy == "autoplay" else policy]
    return "\n".join(say(lang, f"help_{part}", colours=colour_list(state, lang)) for part in parts)


def colour_list(state: State, lang: str) -> str:
    """The game's colours as its mails show them: "ro ge bl gr" / "re ye bl gr (red, …)"."""
    codes = " ".join(cards.colour_shown(c, lang) for c in state.options.colours)
    if lang == "de":
        return codes
    return f"{codes} (" + ", ".join(cards.PALETTE[c].en for c in state.options.colours) + ")"


def help_text(state: State, seat: str, lang: str) -> str:
    """HILFE: the order format, and the seat's own example when he may write now."""
    example = example_orders(state, seat, lang)
    if not example:
        return order_format(state, lang)
    return order_format(state, lang) + "\n" + say(lang, "help_example", example=example)


def rules_text(state: State, lang: str) -> str:
    if state.variant == "dd":
        return say(lang, "rules_dd")
    options = state.options
    double = say(lang, "rules_kq_double") if options.kq_double_negative else ""
    return say(
        lang, "rules_kq", limit=options.kq_end_duke_sum, target=options.kq_target, double=double
    )
