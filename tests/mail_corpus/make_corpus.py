"""Writes the corpus: one .eml per case and expected.toml with the reaction to each.

Run ``python -m tests.mail_corpus.make_corpus`` after changing a case; the test fails while
the committed files differ from what this writes. The expectations below are written by hand,
never derived from the decoder: they are what a GM wants to happen to each mail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from tests.mail_corpus import families_a, families_b
from tests.mail_corpus.build import PLACEHOLDER_ID, Case

HERE = Path(__file__).parent

HEADER = """\
# The reaction the daemon must have to each mail in this folder (written by make_corpus.py).
#
# class      the mail class (docs/mail-corpus.md groups the table by it)
# reaction   read       orders are read: the text's order lines are exactly `orders`
#            no-orders  a human mail without any order line: answered "no orders found"
#            ignored    automated (`automated` occurs in Incoming.automated): never answered
#            no-reply   the sender address is not one to write to (`sender_problem` occurs
#                       in Incoming.sender_problem): never answered, not even "unknown sender"
#            set-aside  unreadable (`unreadable` occurs in Incoming.unreadable): stored raw,
#                       shown to the GM, never answered
#            encrypted  no line can be read because the mail is encrypted (Incoming.encrypted
#                       is `encrypted`): the player is told that encrypted mail cannot be read
# sender     Incoming.sender
# text_from  Incoming.text_from when it is not "body"
# why        what the mail is and why the reaction is right
"""


def all_cases() -> Iterator[Case]:
    """Every case, each with a Message-ID of its own (head() writes a placeholder)."""
    for case in (*families_a.cases(), *families_b.cases()):
        own_id = f"<{case.name}@corpus.example>".encode()
        case.raw = case.raw.replace(PLACEHOLDER_ID.encode(), own_id, 1)
        yield case


def toml_entry(case: Case) -> str:
    fields: dict[str, object] = {
        "class": case.mail_class,
        "reaction": case.reaction,
        "sender": case.sender,
        "why": case.why,
    }
    if case.orders:
        fields["orders"] = case.orders
    for key in ("automated", "unreadable", "sender_problem", "encrypted"):
        if getattr(case, key):
            fields[key] = getattr(case, key)
    if case.text_from != "body":
        fields["text_from"] = case.text_from
    body = "".join(
        f"{key} = {json.dumps(value, ensure_ascii=False)}\n" for key, value in fields.items()
    )
    return f"\n[{case.name}]\n{body}"


def expected_toml(cases: list[Case]) -> str:
    return HEADER + "".join(toml_entry(case) for case in cases)


def main() -> None:
    cases = list(all_cases())
    for old in HERE.glob("*.eml"):
        old.unlink()
    for case in cases:
        (HERE / f"{case.name}.eml").write_bytes(case.raw)
    (HERE / "expected.toml").write_text(expected_toml(cases), encoding="utf-8")
    print(f"{len(cases)} mails written to {HERE}")


if __name__ == "__main__":
    main()
