"""Big mails: a 2 MB photo beside the orders, and 2 MB of text that is not orders. The reply
stays short and nothing is lost."""

from __future__ import annotations

from email.message import EmailMessage

from tests.daemon_harness import DaemonHarness

ORDERS = (
    "Code: HANS-5678\nDuelle\nA. Langsam: 17, 12\nV. Pech: 5, 2\nHerausforderungen: E. Müller\n"
)


def test_orders_with_a_2_mb_photo_are_read(club: DaemonHarness) -> None:
    mail = EmailMessage()
    mail["From"] = "Hans <hans@example.org>"
    mail["To"] = "gm@gm.test"
    mail["Subject"] = "[hn1] Befehle (mit Foto vom Stammtisch)"
    mail["Message-ID"] = "<photo-2mb@example.org>"
    mail.set_content(ORDERS)
    photo = bytes(range(256)) * 8_000
    mail.add_attachment(photo, maintype="image", subtype="jpeg", filename="stammtisch.jpg")
    raw = bytes(mail)
    assert len(raw) > 2_000_000
    club.send_raw(raw)
    (ack,) = club.run()
    assert "Befehle angenommen" in ack["Subject"]
    assert "Duell gegen A. Langsam: 17, 12" in club.body(ack)
    assert len(bytes(ack)) < 10_000


def test_2_mb_of_text_gets_a_short_reply_listing_the_count(club: DaemonHarness) -> None:
    sentence = "Ein Roman, den ich versehentlich eingefügt habe, Kapitel um Kapitel. " * 8
    junk = "".join(f"{i}. {sentence}\n" for i in range(4_000))
    assert len(junk) > 2_000_000
    club.send("hans@example.org", ORDERS + junk, subject="[hn1] Befehle")
    (reply,) = club.run()
    body = club.body(reply)
    assert len(body) < 20_000
    assert "Befehle NICHT angenommen" in reply["Subject"]
    assert "Zeile 6: „0. Ein Roman" in body
    assert "… und 3985 weitere (nicht einzeln aufgeführt)" in body


def test_many_ignored_lines_give_a_short_acknowledgement(club: DaemonHarness) -> None:
    club.send("hans@example.org", ORDERS + "Gruss\n" * 3 + ("x" * 70 + "\n") * 500, subject="[hn1]")
    (ack,) = club.run()
    body = club.body(ack)
    assert "Befehle angenommen" in ack["Subject"]
    assert "Duell gegen V. Pech: 5, 2" in body
    assert len(body) < 10_000
    assert "weitere (nicht einzeln aufgeführt)" in body
