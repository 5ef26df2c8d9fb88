"""The adjudicator's English sentences in the player's language.

The Diplomacy engine explains every result in English ("bounced with F MAO", "support cut by
A TYR") and its reader does the same for orders it cannot read. Highlander mails are German
or English, so each sentence shape is matched here and said again through the phrase
catalogue; the English entries give the engine's own words back. A shape not in the table
is left as it is (``test_wording`` keeps the table complete for the shapes the engine has).
Seat ids inside a sentence ("F LON belongs to anna") become the players' names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from gm_daemon.diplomacy import alias_sections
from gm_daemon.games.kit.phrases import Phrases

PHRASES = Phrases.beside(__file__)

_U = r"(?P<unit>[AF] [A-Z]{3}(?:/[A-Z]{2})?)"
_P = r"(?P<place>[A-Z]{3}(?:/[A-Z]{2})?)"
_SHAPES: list[tuple[str, str]] = [
    (r"bounced with (?P<other>[AF] \S+) \(head-to-head\)", "r_head_bounce"),
    (r"beaten by (?P<other>[AF] \S+) \(head-to-head\)", "r_head_beaten"),
    (r"bounced with (?P<other>[AF] \S+)", "r_bounced_with"),
    (r"bounced off (?P<other>[AF] \S+)", "r_bounced_off"),
    (rf"{_U} did not move away", "r_not_away"),
    (r"may not dislodge own (?P<other>[AF] \S+)", "r_own"),
    (r"support cut by (?P<other>[AF] \S+)", "r_cut"),
    (r"dislodged by (?P<other>[AF] \S+)", "r_dislodged"),
    (r"no convoy path: convoy disrupted", "r_disrupted"),
    (r"no convoy path", "r_no_path"),
    (r"convoy paradox: the fleet holds \(Szykman rule\)", "r_paradox"),
    (rf"{_U} does not move to {_P} by convoy", "r_not_convoyed"),
    (rf"{_U} does not move to {_P}", "r_not_moving"),
    (rf"{_U} does not hold", "r_not_holding"),
    (rf"{_U} cannot reach {_P}", "r_cannot_reach"),
    (rf"{_U} cannot move to its own province", "r_own_province"),
    (rf"no fleets to convoy {_U} to {_P}", "r_no_fleets"),
    (rf"{_U} cannot support itself", "r_support_itself"),
    (rf"{_U} cannot support a move into its own province", "r_support_own"),
    (r"only a fleet at sea can convoy", "r_fleet_at_sea"),
    (r"only armies can be convoyed", "r_only_armies"),
    (rf"{_U} cannot be convoyed to {_P}", "r_cannot_convoy"),
    (rf"{_U} is on no convoy route from (?P<a>\S+) to (?P<b>\S+)", "r_no_route"),
    (rf"no unit in {_P} to support", "r_none_support"),
    (rf"no unit in {_P} to convoy", "r_none_convoy"),
    (rf"no unit in {_P}", "r_no_unit"),
    (rf"{_U} belongs to (?P<seat>\S+)", "r_belongs"),
    (rf"{_U} has conflicting orders", "r_conflict"),
    (r"repeats an earlier order", "r_repeat"),
    (r"no order: disbanded", "r_no_order_disbanded"),
    (r"no order", "r_no_order"),
    (r"disbanded", "r_disbanded"),
    (r"build waived", "r_waived"),
    (r"no builds left", "r_no_builds"),
    (r"civil disorder", "r_disorder"),
    (rf"{_P} is occupied", "r_occupied"),
    (rf"{_P} is not a supply centre", "r_not_centre"),
    (rf"(?P<seat>\S+) cannot build in {_P}", "r_cannot_build"),
    (rf"army or fleet in {_P}\?", "r_army_or_fleet"),
    (rf"a fleet cannot be built in {_P}: no coast", "r_no_coast"),
    (rf"which coast of {_P}: (?P<choices>.+)\?", "r_which_coast"),
    (r"(?P<seat>\S+) has nothing to adjust", "r_nothing"),
    (r"(?P<seat>\S+) builds, it removes nothing", "r_builds"),
    (r"(?P<seat>\S+) must remove, not build", "r_removes"),
    (r"no more removals needed", "r_enough"),
    (r"already removed", "r_already"),
    (rf"no unit of (?P<seat>\S+) in {_P}", "r_no_unit_of"),
    (r"not an order for the movement phase", "r_not_movement"),
    (r"only retreats and disbands are possible in the retreat phase", "r_retreat_only"),
    (rf"the unit in {_P} was not dislodged", "r_not_dislodged"),
    (rf"no dislodged unit in {_P}", "r_no_dislodged"),
    (rf"{_U} cannot retreat to {_P}: occupied", "r_retreat_occupied"),
    (rf"{_U} cannot retreat to {_P}: the attack came from there", "r_retreat_attacker"),
    (rf"{_U} cannot retreat to {_P}: left empty by a standoff", "r_retreat_standoff"),
    (r"failed", "r_failed"),
    (r"cannot read '(?P<text>.*)' at column (?P<column>\d+)", "e_cannot_read_at"),
    (r"cannot read '(?P<text>.*)'", "e_cannot_read"),
    (r"unknown province '(?P<name>.*)'", "e_unknown_province"),
    (r"did you mean (?P<place>\S+) \((?P<name>.*)\)\?", "h_did_you_mean"),
    (r"a '-' missing between two places\?", "h_dash"),
    (r"a move needs a destination after '-', e\.g\. .*", "h_move"),
    (r"a support names the supported unit, e\.g\. .*", "h_support"),
    (r"a support of a move needs the destination, e\.g\. .*", "h_support_move"),
    (r"a convoy names the army and its destination, e\.g\. .*", "h_convoy"),
    (r"a retreat needs a destination, e\.g\. .*", "h_retreat"),
    (r"an order starts with the unit, e\.g\. .*", "h_unit_first"),
    (r"a build names the place, e\.g\. .*", "h_build"),
    (r"a coast is written STP/NC or StP\(nc\)", "h_coast"),
    (r"what should the unit do\? e\.g\. .*", "h_what"),
]
_COMPILED = [(re.compile(f"^{shape}$"), key) for shape, key in _SHAPES]


def say(text: str, lang: str, names: Mapping[str, str] | None = None) -> str:
    """``text`` (one engine sentence, or several joined by "; ") in ``lang``."""
    return "; ".join(_one(part, lang, names or {}) for part in text.split("; ") if part)


def _one(text: str, lang: str, names: Mapping[str, str]) -> str:
    for pattern, key in _COMPILED:
        match = pattern.match(text)
        if match:
            values = dict(match.groupdict())
            if "seat" in values:
                values["seat"] = names.get(values["seat"], values["seat"])
            if key == "h_did_you_mean" and lang == "de":
                values["name"] = german_names().get(values["place"], values["name"])
            if "column" in values:  # the part not read, not the whole line once more
                rest = values["text"][int(values["column"]) - 1 :].strip()
                values["rest"] = rest or values["text"].split()[-1]
            if "choices" in values and lang == "de":
                values["choices"] = values["choices"].replace(" or ", " oder ")
            return PHRASES(lang, key, **values)
    return text


@functools.cache
def german_names() -> dict[str, str]:
    """Province abbreviation -> its German name: the first of the German names the reader
    takes (its section "German names" of ``alias_sections``), so a German mail never names a
    place in English."""
    names: dict[str, str] = {}
    for section, spellings in alias_sections().items():
        if section.startswith("German names"):
            for alias, place in spellings:
                names.setdefault(place, alias)
    return names


def known(text: str) -> bool:
    """Whether every part of ``text`` has a shape in the table (for the tests)."""
    return all(any(p.match(part) for p, _ in _COMPILED) for part in text.split("; ") if part)


_KEYWORDS_DE = [(r" S ", " U "), (r" C ", " K "), (r"^BUILD ", "BAUE "), (r"^REMOVE ", "ENTFERNE "),
                (r"^WAIVE$", "VERZICHT"), (r" VIA$", " PER KONVOI")]  # fmt: skip


def order(text: str, lang: str) -> str:
    """A canonical order (``F NTH C A LON - NWY``) with the keywords of ``lang``; the German
    form is what the German reader accepts (``F NTH K A LON - NWY``)."""
    if lang != "de":
        return text
    for pattern, replacement in _KEYWORDS_DE:
        text = re.sub(pattern, replacement, text)
    return text
