"""Inline OpenPGP armour in a mail body, reduced to what a player wrote.

Some players sign every mail (Enigmail's old inline mode, GnuPG by hand, K-9 with OpenKeychain).
The daemon does not verify signatures — the player's code is the proof of identity — so a
clear-signed text is read as if it were unsigned. Armour lines become blank lines instead of
disappearing, so the line numbers in a reply are still those the player sees in his mail.
Encrypted blocks, key blocks and stray signatures cannot be orders: they become blank lines.
"""

from __future__ import annotations

from gm_daemon.patterns import on_first_use

_BEGIN_SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----"
_BLOCK = on_first_use(r"^-----BEGIN PGP (SIGNATURE|MESSAGE|PUBLIC KEY BLOCK)-----$")
_ARMOUR_HEADER = on_first_use(r"^[A-Za-z][A-Za-z-]*: ")


def strip_armour(text: str) -> str:
    """``text`` with clear-sign armour removed and dash-escaping undone (RFC 4880 §7.1)."""
    if "-----BEGIN PGP " not in text:
        return text
    out: list[str] = []
    state = "plain"  # plain → headers → signed → plain; "block" inside an armoured block
    block_end = ""
    for line in text.split("\n"):
        stripped = line.rstrip()
        if state == "block":
            out.append("")
            state = "plain" if stripped == block_end else "block"
        elif stripped == _BEGIN_SIGNED:
            out.append("")
            state = "headers"
        elif state == "headers":
            out.append("")
            state = "headers" if _ARMOUR_HEADER.match(stripped) else "signed"
        elif _BLOCK.match(stripped):
            out.append("")
            block_end = stripped.replace("BEGIN", "END")
            state = "block"
        elif state == "signed" and line.startswith("- "):
            out.append(line[2:])
        else:
            out.append(line)
    return "\n".join(out)
