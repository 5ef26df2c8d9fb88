"""Order texts as players type them, H. Glück in round 1 (opponents A. Langsam, V. Pech):
accepted ones with the orders now in force, rejected ones with the line, what is wrong and
what would be right, in German."""

from __future__ import annotations

import pytest

from tests.daemon_harness import DaemonHarness

CODE = "Code: HANS-5678\n"

ACCEPTED = [
    # (mail body after the code line, lines the acknowledgement must show)
    ("Meine Züge:\nLangsam 19 15\n", ["Duell gegen A. Langsam: 19, 15"]),
    ("My orders:\nvs Pech: 3 2 1\n", ["Duell gegen V. Pech: 3, 2, 1"]),
    ("LANGSAM: 19\nPECH: KEINE\n", ["Duell gegen A. Langsam: 19", "Duell gegen V. Pech: keine"]),
    ("langsam 19\r\npech 1\r\n", ["Duell gegen A. Langsam: 19", "Duell gegen V. Pech: 1"]),
]

REJECTED = [
    # (mail body after the code line, the line as quoted, what the reply must also say)
    ("Pech:\n", "Zeile 2: „Pech:“", "Keine Schusspositionen angegeben."),
    ("Langsam: 19, 15, 8, 4, 2\n", "Mail", "5 Schüsse geplant, aber nur P=4 Patronen."),
    ("Langsam: 25\n", "Zeile 2: „Langsam: 25“", "19"),
    ("Müller: 3\n", "Zeile 2: „Müller: 3“", "Ihre Gegner in Runde 1: A. Langsam, V. Pech."),
    ("Langsam 19\nLangsam 15\n", "Zeile 3: „Langsam 15“", "Zweite Zeile für das Duell"),
]


@pytest.mark.parametrize(("body", "shown"), ACCEPTED)
def test_accepted_order_text(club: DaemonHarness, body: str, shown: list[str]) -> None:
    club.send("hans@example.org", CODE + body, subject="[hn1] Befehle")
    (ack,) = club.run()
    assert "Befehle angenommen" in ack["Subject"]
    for line in shown:
        assert line in club.body(ack)


@pytest.mark.parametrize(("body", "where", "says"), REJECTED)
def test_rejected_order_text_names_line_and_keeps_orders(
    club: DaemonHarness, body: str, where: str, says: str
) -> None:
    club.send("hans@example.org", CODE + "Langsam: 17\n", subject="[hn1] Befehle")
    club.run()
    club.send("hans@example.org", CODE + body, subject="[hn1] Befehle")
    (reply,) = club.run()
    text = club.body(reply)
    assert "Befehle NICHT angenommen" in reply["Subject"]
    assert f"- {where}" in text and says in text
    assert "Richtig wäre:" in text
    # nothing lost: the orders sent before stay in force, and the reply says so
    assert "Weiter gültig sind Ihre bisherigen Befehle:\nDuell gegen A. Langsam: 17" in text


def _the_first_orders_stand(club: DaemonHarness) -> None:
    """STAND shows the orders "Langsam: 17" sent first, untouched by the mail after them."""
    club.send("hans@example.org", CODE + "STAND\n", subject="[hn1]")
    (status,) = club.run()
    assert "Duell gegen A. Langsam: 17" in club.body(status)


def test_orders_for_another_round_are_refused_and_lose_nothing(club: DaemonHarness) -> None:
    club.send("hans@example.org", CODE + "Langsam: 17\n", subject="[hn1] Befehle")
    club.send("hans@example.org", CODE + "Runde 2\nLangsam: 3\n", subject="[hn1] Befehle")
    _ack, stale = club.run()
    assert "Falsche Runde" in stale["Subject"]
    assert "Die Mail nennt Runde 2, aktuell ist aber Runde 1." in club.body(stale)
    assert "Befehle, die schon vorliegen, gelten weiter." in club.prose(stale)
    _the_first_orders_stand(club)


@pytest.mark.parametrize(
    "body",
    [
        "Hallo Spielleiter,\n\nViele Grüße\nHans\n",
        "Danke!\r\n\r\nGruß\r\nHans Glück\r\n",  # Windows line ends
        "Thanks!\n-- \nHans Glück\nTel. 0761 12345\n",
    ],
)
def test_a_mail_of_nothing_but_greetings_keeps_the_orders_on_file(
    club: DaemonHarness, body: str
) -> None:
    """Read as orders of nothing, it was accepted as "no shots, no challenges" and replaced
    the orders sent before; it is answered as a mail without orders."""
    club.send("hans@example.org", CODE + "Langsam: 17\n", subject="[hn1] Befehle")
    club.send("hans@example.org", CODE + body, subject="Re: [hn1] Befehle angenommen")
    _ack, reply = club.run()
    assert "Keine Befehle gefunden" in reply["Subject"]
    assert "In Ihrer Mail stehen nur Grüße, keine Befehle" in club.prose(reply)
    assert "Befehle, die schon vorliegen, gelten weiter." in club.prose(reply)
    _the_first_orders_stand(club)
