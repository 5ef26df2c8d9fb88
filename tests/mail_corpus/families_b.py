"""Corpus, second half: headers and structure (missing, garbled, 8-bit, deep nesting, empty),
mail no one may answer (bounces, vacation notes, lists, our own mail sent back), senders never
to write to, and hostile text."""

from __future__ import annotations

from collections.abc import Iterator

from tests.mail_corpus.build import (
    EGON,
    ORDER_LINES,
    ORDERS,
    SIGNATURE,
    Case,
    eml,
    head,
    multipart,
    opaque,
    part,
    text,
)
from tests.mail_corpus.families_a import no_orders, read

HEADERS = "missing and garbled headers"
EIGHT_BIT = "8-bit headers"
STRUCTURE = "MIME structure (deep nesting, broken boundaries)"
EMPTY = "empty bodies"
BOUNCES = "bounces"
VACATION = "vacation and out-of-office replies"
LISTS = "list mail and newsletters"
RULES = "our own mail sent back by mailbox rules"
SENDERS = "sender addresses never to write to"
HOSTILE = "hostile text"

BODY = ORDERS + "\n" + SIGNATURE


def ignored(name: str, cls: str, raw: bytes, why: str, reason: str, sender: str = EGON) -> Case:
    return Case(name, cls, raw, "ignored", why, sender=sender, automated=reason)


def set_aside(name: str, raw: bytes, why: str, reason: str, sender: str = EGON) -> Case:
    return Case(name, STRUCTURE, raw, "set-aside", why, sender=sender, unreadable=reason)


def cases() -> Iterator[Case]:
    for family in (headers, eight_bit, structure, empty, bounces, vacation, lists, rules):
        yield from family()
    yield from senders()
    yield from hostile()


def headers() -> Iterator[Case]:
    yield ignored(
        "hdr_no_from",
        HEADERS,
        eml(head(sender=None), text(BODY)),
        "no From: nobody to answer",
        "no sender address",
        sender="",
    )
    yield ignored(
        "hdr_from_name_only",
        HEADERS,
        eml(head(sender="Egon Müller"), text(BODY)),
        "From without an address",
        "no sender address",
        sender="",
    )
    plain = [
        ("hdr_no_subject", head().replace("Subject: [hn1] Befehle Runde 3\n", ""), "no Subject"),
        (
            "hdr_no_msgid_no_date",
            head()
            .replace("Message-ID: <corpus@example.org>\n", "")
            .replace("Date: Sun, 22 Nov 2026 12:00:00 +0100\n", ""),
            "no Message-ID and no Date",
        ),
        (
            "hdr_from_comment_form",
            head(sender="egon@example.org (Egon Müller)"),
            "old comment form of From",
        ),
        ("hdr_from_group_syntax", head(sender="Spieler: egon@example.org;"), "From as a group"),
        (
            "hdr_from_uppercase",
            head(sender="Egon <EGON@Example.ORG>"),
            "upper-case address: compared in lower case",
        ),
        (
            "hdr_reply_to_elsewhere",
            head(extra="Reply-To: other@example.net\n"),
            "Reply-To is not the sender",
        ),
        (
            "hdr_from_one_encoded_word_q",
            head(sender="=?utf-8?q?Egon_M=C3=BCller_<egon@example.org>?="),
            "the whole From as one Q-encoded word (old Python scripts)",
        ),
        (
            "hdr_from_one_encoded_word_b",
            head(sender="=?utf-8?b?RWdvbiBNw7xsbGVyIDxlZ29uQGV4YW1wbGUub3JnPg==?="),
            "the whole From as one B-encoded word",
        ),
        (
            "hdr_msgid_folded_no_brackets",
            head(msgid="\n 20261122120000.4711\n .egon@host.example"),
            "a folded Message-ID without angle brackets",
        ),
        ("hdr_subject_folded", head(subject="[hn1]\n Befehle\n\tRunde 3"), "a folded Subject"),
        (
            "hdr_duplicate_from",
            head(extra="From: mallory@example.net\n"),
            "two From headers: the first counts",
        ),
        ("hdr_long_subject", head(subject="Befehle " * 12000), "a 100 kB Subject"),
    ]
    for name, block, why in plain:
        yield read(name, HEADERS, eml(block, text(BODY)), why)
    yield read(
        "hdr_no_mime_headers",
        HEADERS,
        eml(head().replace("MIME-Version: 1.0\n", ""), b"\n" + BODY.encode()),
        "no MIME-Version and no Content-Type, 8-bit UTF-8",
    )
    yield read(
        "hdr_content_type_garbled",
        HEADERS,
        eml(head(), part("text/plain; charset", BODY)),
        "Content-Type: text/plain; charset",
    )
    yield read(
        "hdr_content_type_no_subtype",
        HEADERS,
        eml(head(), part("text", BODY)),
        "Content-Type: text",
    )
    yield read(
        "hdr_cte_garbled",
        HEADERS,
        eml(
            head(),
            part("text/plain; charset=utf-8", BODY, None, "Content-Transfer-Encoding: 7-bit\n"),
        ),
        "Content-Transfer-Encoding: 7-bit",
    )
    broken = head() + "Das ist kein Header\n"
    yield read(
        "hdr_line_without_colon",
        HEADERS,
        eml(broken, text(ORDERS)),
        "a line without a colon ends the headers: it and the rest are body",
        ["Das ist kein Header", "Content-Type: text/plain; charset=utf-8", *ORDER_LINES],
    )
    yield read(
        "hdr_crlf_everywhere",
        HEADERS,
        eml(head(), text(BODY)).replace(b"\n", b"\r\n"),
        "CRLF line ends throughout",
    )
    yield read(
        "hdr_bare_cr",
        HEADERS,
        eml(head(), text(BODY)).replace(b"\n", b"\r"),
        "old Mac: bare CR line ends",
    )


def eight_bit() -> Iterator[Case]:
    utf8 = head(
        sender="Egon Müller <egon@example.org>", subject="[hn1] Befehle für Runde 3 – Grüße"
    )
    yield read(
        "8bit_utf8_from_and_subject",
        EIGHT_BIT,
        eml(utf8, text(BODY)),
        "raw UTF-8 in From and Subject (RFC 6532)",
    )
    latin = head(sender="Egon M\udcfcller <egon@example.org>").encode("utf-8", "surrogateescape")
    yield read("8bit_latin1_from", EIGHT_BIT, latin + text(BODY), "raw Latin-1 in the display name")
    yield read(
        "8bit_unknown_charset_word",
        EIGHT_BIT,
        eml(head(subject="=?x-klingon?q?Befehle?="), text(BODY)),
        "an encoded word in an unknown charset",
    )
    yield read(
        "8bit_broken_base64_word",
        EIGHT_BIT,
        eml(head(sender="=?utf-8?b?!!!kaputt?= <egon@example.org>"), text(BODY)),
        "a broken base64 word in the name",
    )
    yield read(
        "8bit_in_message_id",
        EIGHT_BIT,
        eml(head(msgid="<grüße@example.org>"), text(BODY)),
        "8-bit Message-ID",
    )
    idn = Case(
        "8bit_utf8_address",
        EIGHT_BIT,
        eml(head(sender="Jürgen <jürgen@müller.example>"), text(BODY)),
        "read",
        "an internationalised address (SMTPUTF8) is a valid sender",
        sender="jürgen@müller.example",
        orders=list(ORDER_LINES),
    )
    yield idn


def _nested(levels: int) -> bytes:
    parts = [b"Content-Type: multipart/mixed; boundary=n0\n\n"]
    parts += [
        b"--n%d\nContent-Type: multipart/mixed; boundary=n%d\n\n" % (i, i + 1)
        for i in range(levels)
    ]
    parts.append(b"--n%d\nContent-Type: text/plain; charset=utf-8\n\n" % levels + ORDERS.encode())
    parts += [b"--n%d--\n" % i for i in range(levels, -1, -1)]
    return b"".join(parts)


def structure() -> Iterator[Case]:
    yield set_aside(
        "struct_nested_1000",
        eml(head(), _nested(1000)),
        "1 000 nested multiparts (~60 kB): the parser gives up",
        "boundaries",
    )
    yield set_aside(
        "struct_nested_40",
        eml(head(), _nested(40)),
        "40 nested multiparts: no client does that",
        "nested deeper",
    )
    yield read(
        "struct_nested_20", STRUCTURE, eml(head(), _nested(20)), "20 nested multiparts: read"
    )
    rfc = b"Content-Type: message/rfc822\n\nFrom: x@example.net\n" * 1000 + b"\n" + ORDERS.encode()
    yield set_aside(
        "struct_nested_rfc822_1000",
        eml(head(), rfc),
        "1 000 messages inside each other",
        "nested too deep",
    )
    many = (
        b"Content-Type: multipart/mixed; boundary=m\n\n"
        + b"--m\nContent-Type: text/plain\n\nx\n" * 1200
        + b"--m--\n"
    )
    yield set_aside("struct_1200_parts", eml(head(), many), "1 200 parts", "MIME parts")
    unclosed = multipart("mixed", text(BODY)).rsplit(b"--b1--", 1)[0]
    yield read(
        "struct_boundary_never_closed",
        STRUCTURE,
        eml(head(), unclosed),
        "the closing boundary is missing",
    )
    no_boundary = b"Content-Type: multipart/mixed\n\n" + BODY.encode()
    yield read(
        "struct_multipart_without_boundary",
        STRUCTURE,
        eml(head(), no_boundary),
        "multipart without boundary: read as text",
    )
    unused = b"Content-Type: multipart/mixed; boundary=nie\n\n" + BODY.encode()
    yield read(
        "struct_boundary_never_used",
        STRUCTURE,
        eml(head(), unused),
        "a boundary that never occurs: read as text",
    )
    preamble = multipart("mixed", text(BODY)).replace(
        b"This is a multi-part", b"Duelle\nA. Langsam 1, 1\nThis is a multi-part"
    )
    yield read(
        "struct_preamble_text", STRUCTURE, eml(head(), preamble), "text in the preamble is not read"
    )
    forwarded = part("message/rfc822", "From: anna@example.net\nSubject: Befehle\n\n" + ORDERS)
    yield no_orders(
        "struct_forwarded_third_party_only",
        STRUCTURE,
        eml(head("Fwd: Befehle"), multipart("mixed", forwarded)),
        "a third party's mail forwarded without a word: not the sender's own text",
    )
    digest = multipart(
        "digest", b"\nFrom: a@example.net\n\neins\n", b"\nFrom: b@example.net\n\nzwei\n"
    )
    yield no_orders("struct_digest", STRUCTURE, eml(head(), digest), "a digest of other mails")


def empty() -> Iterator[Case]:
    bodies = [
        ("empty_body", b"", "nothing at all"),
        ("empty_whitespace", b" \n\t\n \n", "only blanks"),
        ("empty_signature_only", SIGNATURE.encode(), "only a signature"),
        ("empty_quote_only", b"> Duelle\n> A. Langsam 19, 15\n", "only a quote"),
        ("empty_comment_only", b"# meine Befehle kommen morgen\n", "only a # comment"),
    ]
    for name, body, why in bodies:
        yield no_orders(name, EMPTY, eml(head(), part("text/plain; charset=utf-8", body)), why)
    yield no_orders(
        "empty_orders_in_subject_only",
        EMPTY,
        eml(head(subject="Code EGON-1234 A. Langsam 19, 15"), text("")),
        "orders in the Subject only",
    )
    yield no_orders(
        "empty_no_body_at_all", EMPTY, head().encode(), "headers only, no blank line, no body"
    )


def _dsn(action: str) -> bytes:
    status = (
        "Reporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; nobody@example.org\n"
        f"Action: {action}\nStatus: 5.1.1\n"
    )
    return multipart(
        "report",
        text("Your message could not be delivered.\n"),
        part("message/delivery-status", status),
        part("message/rfc822", "From: gm@gm.test\nSubject: [hn1]\n\nBefehle angenommen\n"),
        params="; report-type=delivery-status",
    )


def bounces() -> Iterator[Case]:
    postfix = head(
        sender="MAILER-DAEMON@mx.example.org (Mail Delivery System)",
        subject="Undelivered Mail Returned to Sender",
        extra="Auto-Submitted: auto-replied\n",
    )
    yield ignored(
        "bounce_postfix_dsn",
        BOUNCES,
        eml(postfix, _dsn("failed")),
        "Postfix DSN",
        "Auto-Submitted",
        sender="mailer-daemon@mx.example.org",
    )
    exchange = head(sender="postmaster@firma.example", subject="Unzustellbar: [hn1] Runde 3")
    yield ignored(
        "bounce_exchange_ndr",
        BOUNCES,
        eml(exchange, _dsn("failed")),
        "Exchange NDR",
        "multipart/report",
        sender="postmaster@firma.example",
    )
    gmail = head(
        sender="Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
        subject="Delivery Status Notification (Failure)",
    )
    yield ignored(
        "bounce_gmail",
        BOUNCES,
        eml(gmail, _dsn("failed")),
        "Gmail bounce",
        "multipart/report",
        sender="mailer-daemon@googlemail.com",
    )
    qmail = "Return-Path: <>\n" + head(
        sender="MAILER-DAEMON@qmail.example", subject="failure notice"
    )
    yield ignored(
        "bounce_qmail_plain",
        BOUNCES,
        eml(qmail, text("Hi. This is the qmail-send program.\n")),
        "qmail plain bounce",
        "Return-Path",
        sender="mailer-daemon@qmail.example",
    )
    exim = head(
        sender="Mail Delivery System <Mailer-Daemon@exim.example>", subject="Mail delivery failed"
    )
    yield ignored(
        "bounce_exim_plain",
        BOUNCES,
        eml(exim, text("This message was created automatically.\n")),
        "Exim bounce",
        "sender mailer-daemon",
        sender="mailer-daemon@exim.example",
    )
    delayed = head(
        sender="MAILER-DAEMON@mx.example.org", subject="Delayed Mail (still being retried)"
    )
    yield ignored(
        "bounce_delayed",
        BOUNCES,
        eml(delayed, _dsn("delayed")),
        "a delay warning",
        "multipart/report",
        sender="mailer-daemon@mx.example.org",
    )
    arf = multipart(
        "report",
        text("This is an abuse report\n"),
        part("message/feedback-report", "Feedback-Type: abuse\n"),
        params="; report-type=feedback-report",
    )
    yield ignored(
        "bounce_arf_feedback",
        BOUNCES,
        eml(head(sender="abuse@isp.example", subject="Abuse report"), arf),
        "a spam complaint (ARF)",
        "multipart/report",
        sender="abuse@isp.example",
    )
    quoted = "Return-Path: <>\n" + head(
        sender="postmaster@gmx.example", subject="Mail delivery failed"
    )
    yield ignored(
        "bounce_quoting_orders",
        BOUNCES,
        eml(quoted, text("Delivery failed:\n\n" + ORDERS)),
        "a bounce quoting a player's orders is still a bounce",
        "Return-Path",
        sender="postmaster@gmx.example",
    )


def vacation() -> Iterator[Case]:
    note = "Ich bin bis zum 30.11. nicht im Büro.\n"
    headered = [
        ("vac_rfc3834_auto_replied", "Auto-Submitted: auto-replied\n", "Urlaub", "Auto-Submitted"),
        ("vac_sieve", "Auto-Submitted: auto-replied (vacation)\n", "Abwesend", "Auto-Submitted"),
        (
            "vac_gmail",
            "Auto-Submitted: auto-replied\nPrecedence: bulk\n",
            "Re: [hn1] Runde 3",
            "Auto-Submitted",
        ),
        ("vac_x_autorespond", "X-Autorespond: Urlaub\n", "Re: [hn1]", "X-Autorespond"),
        ("vac_x_autoreply", "X-Autoreply: yes\n", "Abwesenheit", "X-Autoreply"),
        ("vac_precedence_auto_reply", "Precedence: auto_reply\n", "Re: [hn1]", "Precedence"),
        ("vac_return_path_empty", "Return-Path: <>\n", "Re: [hn1]", "Return-Path"),
        (
            "vac_abwesend_with_header",
            "Auto-Submitted: auto-generated\n",
            "Abwesend: bis 30.11.",
            "Auto-Submitted",
        ),
        (
            "vac_ticket_robot_loop",
            "X-OTRS-Loop: yes\n",
            "[Ticket#2026112210000012] Re: [hn1]",
            "X-OTRS-Loop",
        ),
        (
            "vac_rt_ticket",
            "X-RT-Loop-Prevention: Support\n",
            "[support #4711] AutoReply: [hn1]",
            "X-RT-Loop-Prevention",
        ),
    ]
    for name, extra, subject, reason in headered:
        yield ignored(
            name,
            VACATION,
            eml(head(subject, extra=extra), text(note)),
            f"{subject!r} with {extra.strip()}",
            reason,
        )
    subjects = [
        ("vac_outlook_rule_de", "Automatische Antwort: [hn1] Runde 3"),
        ("vac_outlook_rule_en", "Automatic reply: [hn1] Runde 3"),
        ("vac_exchange_oof_autoreply", "Out of Office AutoReply: [hn1] Runde 3"),
        ("vac_out_of_office", "Out of Office: [hn1] Runde 3"),
        ("vac_abwesenheitsnotiz", "Abwesenheitsnotiz: [hn1] Runde 3"),
        ("vac_urlaubsantwort", "Urlaubsantwort: [hn1] Runde 3"),
        ("vac_reponse_automatique", "Réponse automatique : [hn1] Runde 3"),
    ]
    for name, subject in subjects:
        yield ignored(
            name,
            VACATION,
            eml(head(subject), text(note)),
            f"{subject!r} without headers (client rule)",
            "auto-reply subject",
        )
    yield read(
        "vac_human_abwesend_with_orders",
        VACATION,
        eml(head("Abwesend: 3.-10. Dezember"), text(BODY)),
        "a player writing 'Abwesend:' himself, with orders: a human mail",
    )
    yield read(
        "vac_human_out_of_office_note",
        VACATION,
        eml(head("out of office next week"), text(BODY)),
        "no colon after the phrase: a human subject",
    )


def lists() -> Iterator[Case]:
    shapes = [
        (
            "list_mailman",
            "List-Id: <pbm.lists.example.org>\nList-Post: <mailto:pbm@lists.example.org>\n",
            "List-Id",
        ),
        (
            "list_newsletter",
            "List-Unsubscribe: <https://news.example/u?id=1>\n",
            "List-Unsubscribe",
        ),
        ("list_precedence_list", "Precedence: list\n", "Precedence"),
        ("list_precedence_bulk", "Precedence: bulk\n", "Precedence"),
        ("list_precedence_junk", "Precedence: junk\n", "Precedence"),
    ]
    for name, extra, reason in shapes:
        raw = eml(
            head("[pbm-liste] Neue Runde", sender="PBM-Liste <pbm@lists.example.org>", extra=extra),
            text(BODY),
        )
        yield ignored(
            name,
            LISTS,
            raw,
            "mail from a list, even with orders in it",
            reason,
            sender="pbm@lists.example.org",
        )


def rules() -> Iterator[Case]:
    ours = "Befehle angenommen.\nIhre Befehle für Runde 3 sind gespeichert.\n"
    redirect = head(
        "[hn1] Runde 3: Befehle angenommen",
        sender="Spielleiter <gm@gm.test>",
        extra="Resent-From: egon@example.org\nResent-To: gm@gm.test\n",
    )
    yield ignored(
        "rule_sieve_redirect",
        RULES,
        eml(redirect, text(ours)),
        "redirected intact: From is our address",
        "own address",
        sender="gm@gm.test",
    )
    gmail_fwd = head(
        "[hn1] Runde 3: Befehle angenommen",
        sender="Spielleiter <gm@gm.test>",
        extra="Auto-Submitted: auto-replied\nX-Forwarded-For: egon@example.org gm@gm.test\n",
    )
    yield ignored(
        "rule_gmail_autoforward",
        RULES,
        eml(gmail_fwd, text(ours)),
        "Gmail auto-forwarding keeps our headers",
        "Auto-Submitted",
        sender="gm@gm.test",
    )
    xgm = head("[hn1] Runde 3: Befehle angenommen", extra="X-GM-Game: hn1\n")
    yield ignored(
        "rule_srs_rewritten_from",
        RULES,
        eml(xgm, text(ours)),
        "a forwarder rewrote From to the player but kept X-GM-Game",
        "X-GM-Game",
    )
    own_id = head("[hn1] Runde 3", msgid="<hn1.accepted.egon.3.4f2a9c1e0b7d@gm.test>")
    yield ignored(
        "rule_own_message_id",
        RULES,
        eml(own_id, text(ours)),
        "our Message-ID came back",
        "one of ours",
    )
    exchange = head(
        "WG: [hn1] Runde 3: Befehle angenommen",
        extra="X-MS-Exchange-Inbox-Rules-Loop: egon@firma.example\n",
    )
    yield ignored(
        "rule_exchange_inbox_rule",
        RULES,
        eml(exchange, text("\n" + ours)),
        "an Exchange inbox rule forwarded it",
        "X-MS-Exchange-Inbox-Rules-Loop",
    )
    procmail = head("[hn1] Runde 3", extra="X-Loop: egon@example.org\n")
    yield ignored(
        "rule_procmail_x_loop", RULES, eml(procmail, text(ours)), "a procmail forward", "X-Loop"
    )
    attached = part(
        "message/rfc822",
        f"From: Spielleiter <gm@gm.test>\nX-GM-Game: hn1\nSubject: [hn1]\n\n{ours}",
    )
    yield ignored(
        "rule_forward_as_attachment",
        RULES,
        eml(head("WG: [hn1] Runde 3"), multipart("mixed", text(""), attached)),
        "our mail forwarded as an attachment, no word of the player's",
        "forward of our own mail",
    )
    inline = (
        "---------- Forwarded message ---------\nVon: Spielleiter <gm@gm.test>\n"
        f"Date: So., 22. Nov. 2026\n\n{ours}"
    )
    yield ignored(
        "rule_inline_forward",
        RULES,
        eml(head("Fwd: [hn1] Runde 3"), text(inline)),
        "our mail forwarded inline, nothing above it",
        "forward of our own mail",
    )
    question = multipart("mixed", text("Warum wurde das abgelehnt?\n"), attached)
    yield read(
        "rule_human_forward_with_question",
        RULES,
        eml(head("WG: [hn1] Runde 3"), question),
        "a forward with a question is a human mail",
        ["Warum wurde das abgelehnt?"],
    )


def senders() -> Iterator[Case]:
    long_local = "x" * 5000 + "@evil.test"
    bad = [  # name, From, the sender the decoder reports, why it is refused
        ("sender_no_local_part", "@evil.test", "@evil.test", "no local part"),
        ("sender_double_dot_domain", "a@evil..test", "a@evil..test", "domain"),
        ("sender_space_in_local", "mal lory@evil.test", "mal lory@evil.test", "space"),
        ("sender_hyphen_labels", "a@-evil-.test", "a@-evil-.test", "label"),
        ("sender_5000_char_local", long_local, long_local, "longer than 254"),
        ("sender_quoted_local", '"mal lory"@evil.test', '"mal lory"@evil.test', "space"),
        ("sender_localhost", "root@localhost", "root@localhost", "no dot"),
        ("sender_ip_literal", "a@[192.0.2.1]", "a@[192.0.2.1]", "label"),
        ("sender_two_ats", "Mallory <a@b@evil.test>", "", "no sender address"),
    ]
    for name, address, sender, reason in bad:
        raw = eml(head(sender=address), text(BODY))
        why = f"From: {address[:40]}: never written to ({reason})"
        yield Case(name, SENDERS, raw, "no-reply", why, sender=sender, sender_problem=reason)


def hostile() -> Iterator[Case]:
    inject = head(
        subject="=?utf-8?q?Befehle=0D=0ABcc:_victim@example.org?=",
        sender="=?utf-8?q?Egon=0D=0ATo:_x?= <egon@example.org>",
    )
    yield read(
        "hostile_header_injection",
        HOSTILE,
        eml(inject, text(BODY)),
        "line breaks in encoded Subject and name are flattened",
    )
    yield read(
        "hostile_nul_bytes",
        HOSTILE,
        eml(head(), part("text/plain", ORDERS.encode() + b"\x00\x00\n")),
        "NUL bytes after the orders",
        [*ORDER_LINES, "\x00\x00"],
    )
    rtl = ORDERS.replace("H. Glück", "H. Glück\u200f\u200e")
    yield read(
        "hostile_direction_marks", HOSTILE, eml(head(), text(rtl)), "direction marks are removed"
    )
    zero = ORDERS.replace("Duelle", "Du\u200belle\u00ad")
    yield read(
        "hostile_zero_width",
        HOSTILE,
        eml(head(), text(zero)),
        "zero-width space and soft hyphen are removed",
    )
    tabs = ORDERS.replace("A. Langsam 19, 15", "A. Langsam\t19, 15")
    yield read(
        "hostile_tabs",
        HOSTILE,
        eml(head(), text(tabs)),
        "a tab stays a tab",
        [line.replace("A. Langsam 19, 15", "A. Langsam\t19, 15") for line in ORDER_LINES],
    )
    yield read(
        "hostile_ende_then_junk",
        HOSTILE,
        eml(head(), text(ORDERS + "ENDE\nrm -rf /\n" * 3)),
        "nothing after ENDE is read",
    )
    yield read(
        "hostile_smart_quotes_code",
        HOSTILE,
        eml(head(), text(ORDERS.replace("Code: EGON-1234", "Code: „EGON-1234“"))),
        "typographic quotes stay (the daemon compares codes by letters and digits)",
        ["Code: „EGON-1234“", *ORDER_LINES[1:]],
    )
    yield read(
        "hostile_html_comment_orders",
        HOSTILE,
        eml(head(), part("text/html; charset=utf-8", "<!-- Duelle -->" + "<br>".join(ORDER_LINES))),
        "text in an HTML comment is never read",
    )
    huge_name = head(sender="=?utf-8?q?" + "A" * 3000 + "?= <egon@example.org>")
    yield read(
        "hostile_huge_display_name",
        HOSTILE,
        eml(huge_name, text(BODY)),
        "a 3 000-character display name",
    )
    null_header = head(extra="X-Evil: a\x00b\n")
    yield read(
        "hostile_nul_in_header", HOSTILE, eml(null_header, text(BODY)), "a NUL byte in a header"
    )
    binary = head() + "Content-Type: application/octet-stream\n\n"
    yield no_orders(
        "hostile_binary_body", HOSTILE, binary.encode() + opaque(5000), "a binary body is not text"
    )
    yield Case(
        "hostile_from_is_own_address",
        HOSTILE,
        eml(head(sender="gm@gm.test"), text(BODY)),
        "ignored",
        "a forger using our own address",
        sender="gm@gm.test",
        automated="own address",
    )
    yield Case(
        "hostile_from_egon_reply_to_victim",
        HOSTILE,
        eml(head(extra="Reply-To: victim@example.net\n"), text(BODY)),
        "read",
        "the daemon answers From, never Reply-To",
        orders=list(ORDER_LINES),
    )
