"""Microseconds per ``parse_incoming`` of one order mail, against the email package's own
``message_from_bytes`` of the same bytes (which parse_incoming calls first): what the
decoding adds on top of the parse.

Run by hand from the repository root (no mail stack, no database):

    PYTHONPATH=. .venv/bin/python bench/decode.py [--repeat 7] [--number 5000]

Two mails: the typical order mail (single-part text/plain, as most clients send it) and the
same orders as multipart/alternative with an HTML part. Best of ``--repeat`` rounds of
``--number`` calls each, so a busy machine inflates the figures less.

To compare with another version, run it alternately with that checkout's code
(``git archive COMMIT | tar -x -C DIR``):

    PYTHONPATH=DIR .venv/bin/python -P bench/decode.py

``-P`` keeps the working directory off ``sys.path``: without it, run from the repository
root, the checkout's own ``gm_daemon`` would be measured instead of DIR's.
"""

from __future__ import annotations

import argparse
import email
import timeit
from email.message import EmailMessage

from gm_daemon.mail.message import parse_incoming

OWN = "Spielleiter <gm@gm.test>"
ORDERS = "Hallo,\n\nCode: CODE-0001\nHerausforderungen: keine\n\nGruß\n"


def order_mail(*, html: bool) -> bytes:
    mail = EmailMessage()
    mail["From"] = "Spieler 1 <p1@players.test>"
    mail["To"] = "gm@gm.test"
    mail["Subject"] = "[hn1] Befehle 1"
    mail["Message-ID"] = "<befehle.1@players.test>"
    mail.set_content(ORDERS)
    if html:
        paragraphs = "".join(f"<p>{line}</p>" for line in ORDERS.splitlines() if line)
        mail.add_alternative(f"<html><body>{paragraphs}</body></html>", subtype="html")
    return mail.as_bytes()


def best_us(call: object, repeat: int, number: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--repeat", type=int, default=7)
    args.add_argument("--number", type=int, default=5000)
    opts = args.parse_args()
    for name, raw in (
        ("text/plain", order_mail(html=False)),
        ("alternative", order_mail(html=True)),
    ):
        ours = best_us(lambda raw=raw: parse_incoming(raw, OWN), opts.repeat, opts.number)
        parse = best_us(lambda raw=raw: email.message_from_bytes(raw), opts.repeat, opts.number)
        print(
            f"{name:12s} parse_incoming {ours:6.1f} µs   message_from_bytes {parse:5.1f} µs"
            f"   (decoding adds {ours - parse:5.1f} µs)"
        )


if __name__ == "__main__":
    main()
