"""Corpus, first half: how the text is encoded and packed (charsets, transfer encodings, HTML,
alternatives, attachments, signatures and encryption, format=flowed, replies, client shapes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tests.mail_corpus.build import (
    ORDER_LINES,
    ORDERS,
    SIGNATURE,
    Case,
    armoured,
    attachment,
    eml,
    head,
    html,
    multipart,
    opaque,
    part,
    text,
)

CHARSETS = "charsets and transfer encodings"
LYING = "lying charsets and encodings"
HTML = "HTML-only mails"
ALTERNATIVE = "multipart/alternative"
ATTACHMENTS = "attachments"
CRYPTO = "S/MIME and PGP"
FLOWED = "format=flowed"
REPLIES = "replies with quoted text"
CLIENTS = "client shapes (Outlook, Exchange, Apple, GMX, web.de, phones)"

BODY = ORDERS + "\n" + SIGNATURE
ORDERS_ASCII = ORDERS.replace("ü", "ue")
WELCOME_QUOTE = (
    "> Hallo E. Müller,\n> willkommen zu High Noon.\n> Ihr persönlicher Code: EGON-1234\n"
    "> Ihre Gegner in Runde 1: A. Langsam, V. Pech.\n"
)


def read(name: str, cls: str, raw: bytes, why: str, orders: list[str] | None = None) -> Case:
    return Case(name, cls, raw, "read", why, orders=list(ORDER_LINES if orders is None else orders))


def no_orders(name: str, cls: str, raw: bytes, why: str) -> Case:
    return Case(name, cls, raw, "no-orders", why)


def encrypted(name: str, cls: str, raw: bytes, why: str, how: str) -> Case:
    return Case(name, cls, raw, "encrypted", why, encrypted=how)


def smime_blob(name: str) -> bytes:
    """Real S/MIME made once with openssl (see smime/README.md)."""
    return (Path(__file__).parent / "smime" / f"{name}.p7m").read_bytes()


def cases() -> Iterator[Case]:
    for family in (charsets, lying, html_only, alternative, attachments, crypto, flowed):
        yield from family()
    yield from replies()
    yield from clients()


def charsets() -> Iterator[Case]:
    for label in ("utf-8", "iso-8859-1", "iso-8859-15", "windows-1252", "macintosh", "ibm850"):
        for cte in ("8bit", "quoted-printable", "base64"):
            name = f"charset_{label.replace('-', '')}_{cte.replace('-', '')}"
            entity = text(BODY, label, None if cte == "8bit" else cte)
            if cte == "8bit":
                entity = entity.replace(b"\n\n", b"\nContent-Transfer-Encoding: 8bit\n\n", 1)
            yield read(name, CHARSETS, eml(head(), entity), f"{label} text, {cte}")
    yield read("charset_utf7", CHARSETS, eml(head(), text(BODY, "utf-7")), "UTF-7 (old webmailers)")
    yield read(
        "charset_usascii_7bit",
        CHARSETS,
        eml(head(), text(ORDERS_ASCII, "us-ascii")),
        "plain ASCII with ue for ü",
        ORDERS_ASCII.splitlines(),
    )
    koi = "Привет из Москвы!\n" + ORDERS_ASCII
    yield read(
        "charset_koi8r_russian_greeting",
        CHARSETS,
        eml(head(), text(koi, "koi8-r")),
        "KOI8-R: a Russian greeting above the orders",
        ["Привет из Москвы!", *ORDERS_ASCII.splitlines()],
    )


def lying() -> Iterator[Case]:
    utf8 = BODY.encode()
    for cte in ("8bit", "quoted-printable", "base64"):
        entity = part("text/plain; charset=iso-8859-15", utf8, None if cte == "8bit" else cte)
        yield read(
            f"lie_utf8_labelled_latin9_{cte.replace('-', '')}",
            LYING,
            eml(head(), entity),
            f"UTF-8 bytes labelled iso-8859-15 ({cte}): valid UTF-8 wins over the label",
        )
    yield read(
        "lie_utf8_labelled_usascii",
        LYING,
        eml(head(), part("text/plain; charset=us-ascii", utf8)),
        "UTF-8 bytes labelled us-ascii",
    )
    yield read(
        "lie_latin1_labelled_utf8",
        LYING,
        eml(head(), part("text/plain; charset=utf-8", BODY.encode("latin-1"))),
        "Latin-1 bytes labelled UTF-8: invalid UTF-8 falls back to windows-1252",
    )
    euro = ORDERS + "Notiz: „5 €“ – danke\n"
    yield read(
        "lie_cp1252_labelled_latin1",
        LYING,
        eml(
            head(),
            part("text/plain; charset=iso-8859-1", euro.encode("cp1252"), "quoted-printable"),
        ),
        "Outlook: windows-1252 (€, „“, –) labelled iso-8859-1, read as windows-1252",
        [*ORDER_LINES, "Notiz: „5 €“ – danke"],
    )
    yield read(
        "lie_unknown_charset",
        LYING,
        eml(head(), part("text/plain; charset=x-mac-klingon", utf8)),
        "an unknown charset name: UTF-8, then windows-1252",
    )
    yield read(
        "lie_no_charset_8bit_utf8",
        LYING,
        eml(head(), part("text/plain", utf8)),
        "no charset parameter, 8-bit UTF-8",
    )
    yield read(
        "lie_no_content_type_latin1",
        LYING,
        eml(head(), b"\n" + BODY.encode("latin-1")),
        "no Content-Type at all, 8-bit Latin-1",
    )
    yield read(
        "lie_base64_label_plain_text",
        LYING,
        eml(
            head(),
            b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
            + utf8,
        ),
        "labelled base64 but written as plain text: read as it stands",
    )
    yield read(
        "lie_qp_label_plain_text",
        LYING,
        eml(
            head(),
            part(
                "text/plain; charset=utf-8",
                utf8,
                None,
                "Content-Transfer-Encoding: quoted-printable\n",
            ),
        ),
        "labelled quoted-printable, written plain (no = in it): the same text",
    )
    b64_body = b"Q29kZTogRUdPTi0xMjM0CkRVRUxMRQo=\n"
    yield read(
        "lie_base64_without_header",
        LYING,
        eml(head(), part("text/plain; charset=utf-8", b64_body)),
        "base64 text without the Content-Transfer-Encoding header: the daemon cannot know; "
        "the player is told the line is not understood",
        ["Q29kZTogRUdPTi0xMjM0CkRVRUxMRQo="],
    )
    yield read(
        "lie_uppercase_labels",
        LYING,
        eml(
            head(), part('text/plain; charset="UTF8"', utf8, "base64").replace(b"base64", b"BASE64")
        ),
        'charset "UTF8" without hyphen, transfer encoding BASE64 in capitals',
    )
    yield read(
        "lie_utf8_bom_in_body",
        LYING,
        eml(head(), part("text/plain; charset=utf-8", b"\xef\xbb\xbf" + utf8)),
        "a byte-order mark at the start of the body is dropped",
    )
    mixed = b"Code: EGON-1234\nH. Gl\xfcck\n" + "A. Langsam 19, 15 – sofort\n".encode()
    yield read(
        "lie_mixed_encodings_in_one_body",
        LYING,
        eml(head(), part("text/plain; charset=utf-8", mixed)),
        "one Latin-1 line in a UTF-8 body: read as windows-1252, the UTF-8 dash is garbled",
        ["Code: EGON-1234", "H. Glück", "A. Langsam 19, 15 â€“ sofort"],
    )
    yield read(
        "lie_unknown_transfer_encoding",
        LYING,
        eml(
            head(),
            part("text/plain; charset=utf-8", utf8, None, "Content-Transfer-Encoding: x-binhex\n"),
        ),
        "an unknown transfer encoding: the text is read as it stands",
    )


def _divs(lines: list[str]) -> str:
    return "".join(f"<div>{line}</div>" if line else "<div><br></div>" for line in lines)


def html_only() -> Iterator[Case]:
    body = [*ORDERS.splitlines(), "", "-- ", "Egon"]
    yield read(
        "html_apple_divs",
        HTML,
        eml(head(), html(f"<html><body>{_divs(body)}</body></html>")),
        "Apple Mail: one <div> per line, signature after '-- '",
    )
    mso = "".join(f'<p class="MsoNormal">{line}<o:p></o:p></p>\n' for line in ORDER_LINES)
    outlook = (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>'
        "p.MsoNormal {margin:0cm; font-family:Calibri}</style></head><body lang=DE>"
        f'<div class="WordSection1">{mso}</div></body></html>'
    )
    yield read(
        "html_outlook_msonormal",
        HTML,
        eml(head(), html(outlook, "windows-1252", "quoted-printable")),
        "Outlook HTML: MsoNormal paragraphs, styles, windows-1252 quoted-printable",
    )
    gmail = '<div dir="ltr">' + "<br>".join(ORDER_LINES) + "</div>"
    yield read(
        "html_gmail_br",
        HTML,
        eml(head(), html(gmail, cte="base64")),
        "Gmail: <br> line breaks, base64",
    )
    rows = [
        ["Code: EGON-1234"],
        ["Duelle"],
        ["A. Langsam", "19, 15"],
        ["V. Pech", "4, 1"],
        ["Herausforderungen"],
        ["H. Glück"],
    ]
    table = (
        "<table>"
        + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
        + "</table>"
    )
    yield read(
        "html_table",
        HTML,
        eml(head(), html(table)),
        "orders typed into a table: cells joined by a space",
    )
    entities = _divs(
        [line.replace("ü", "&uuml;").replace(" ", "&nbsp;", 1) for line in ORDER_LINES]
    )
    yield read(
        "html_entities", HTML, eml(head(), html(entities, "us-ascii")), "&uuml; and &nbsp; entities"
    )
    hidden = "<style>div{color:red}</style><script>alert('Befehl')</script>" + _divs(ORDER_LINES)
    yield read(
        "html_script_and_style",
        HTML,
        eml(head(), html(hidden)),
        "script and style text is never read",
    )
    meta = '<html><head><meta charset="utf-8"></head><body>' + _divs(ORDER_LINES) + "</body></html>"
    yield read(
        "html_latin1_meta_says_utf8",
        HTML,
        eml(head(), part("text/html", meta.encode("latin-1"))),
        "HTML bytes in Latin-1, no charset in the header, a <meta> claiming UTF-8",
    )
    quote = (
        _divs(ORDER_LINES)
        + '<blockquote type="cite"><div>Duelle</div><div>A. Langsam 1, 2</div></blockquote>'
    )
    yield read(
        "html_blockquote_reply",
        HTML,
        eml(head(), html(quote)),
        "the quoted old orders are left out",
    )
    yield read(
        "html_pre", HTML, eml(head(), html(f"<pre>{ORDERS}</pre>")), "orders in a <pre> block"
    )


def alternative() -> Iterator[Case]:
    alt = multipart("alternative", text(BODY), html(_divs(ORDER_LINES)))
    yield read("alt_plain_and_html", ALTERNATIVE, eml(head(), alt), "Thunderbird: plain and HTML")
    blank = multipart("alternative", text("\n \n"), html(_divs(ORDER_LINES)))
    yield read(
        "alt_blank_plain",
        ALTERNATIVE,
        eml(head(), blank),
        "a blank plain part beside the HTML: the HTML",
    )
    first = multipart("alternative", html(_divs(["HTML"])), text(BODY))
    yield read(
        "alt_html_first",
        ALTERNATIVE,
        eml(head(), first),
        "HTML listed first: the plain part still wins",
    )
    differ = multipart("alternative", text(BODY), html(_divs(["ganz andere Befehle"])))
    yield read(
        "alt_parts_differ",
        ALTERNATIVE,
        eml(head(), differ),
        "plain and HTML disagree: the plain part",
    )
    photo = attachment("image/jpeg", "foto.jpg", opaque(3000))
    mixed = multipart(
        "mixed",
        multipart("alternative", text(BODY), html(_divs(ORDER_LINES)), boundary="b2"),
        photo,
    )
    yield read(
        "alt_inside_mixed_with_photo",
        ALTERNATIVE,
        eml(head(), mixed),
        "alternative inside mixed, a photo",
    )
    inline = part(
        "image/png", opaque(500), "base64", "Content-ID: <logo@x>\nContent-Disposition: inline\n"
    )
    related = multipart(
        "related", html(_divs(ORDER_LINES) + '<img src="cid:logo@x">'), inline, boundary="b3"
    )
    apple = multipart("alternative", text(BODY), related, boundary="b2")
    yield read(
        "alt_apple_related",
        ALTERNATIVE,
        eml(head(), apple),
        "Apple: alternative of plain and related HTML",
    )
    yield read(
        "alt_text_enriched_only",
        ALTERNATIVE,
        eml(head(), part("text/enriched; charset=utf-8", ORDERS)),
        "text/enriched only: read raw",
    )
    yield read(
        "alt_markdown_only",
        ALTERNATIVE,
        eml(head(), part("text/markdown; charset=utf-8", ORDERS)),
        "text/markdown",
    )
    gmail = multipart(
        "alternative", text(BODY, cte="base64"), html(_divs(ORDER_LINES), cte="quoted-printable")
    )
    yield read(
        "alt_gmail_base64_plain", ALTERNATIVE, eml(head(), gmail), "Gmail: base64 plain, QP HTML"
    )


def attachments() -> Iterator[Case]:
    docx = attachment(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "Befehle.docx",
        opaque(4000),
    )
    yield no_orders(
        "att_docx_only",
        ATTACHMENTS,
        eml(head(), multipart("mixed", docx)),
        "a Word file only: not read",
    )
    photo = attachment("image/jpeg", "IMG_0042.jpg", opaque(20000))
    yield read(
        "att_photo_beside_orders",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), photo)),
        "a photo beside the orders",
    )
    befehle = attachment(
        "text/plain; charset=utf-8", "befehle.txt", ORDERS.encode(), "quoted-printable"
    )
    cover = "Hallo Spielleiter,\n\nanbei meine Befehle.\n\nViele Grüße\nEgon\n"
    for name, body, why in (
        ("att_befehle_txt_cover_note", cover, "cover note in the body, orders in befehle.txt"),
        ("att_befehle_txt_empty_body", "", "empty body, orders in befehle.txt"),
        ("att_befehle_txt_signature_only", SIGNATURE, "only a signature in the body"),
    ):
        yield Case(
            name,
            ATTACHMENTS,
            eml(head(), multipart("mixed", text(body), befehle)),
            "read",
            why,
            orders=list(ORDER_LINES),
            text_from="attachment befehle.txt",
        )
    latin = attachment("text/plain", "befehle.txt", ORDERS.encode("latin-1"))
    yield Case(
        "att_befehle_txt_latin1_no_charset",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(cover), latin)),
        "read",
        "Windows editor: Latin-1, no charset",
        orders=list(ORDER_LINES),
        text_from="attachment befehle.txt",
    )
    octet = attachment("application/octet-stream", "zug3.txt", ORDERS.encode())
    yield Case(
        "att_txt_as_octet_stream",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(""), octet)),
        "read",
        "a .txt sent as application/octet-stream",
        orders=list(ORDER_LINES),
        text_from="attachment zug3.txt",
    )
    utf16 = attachment(
        "text/plain",
        "befehle.txt",
        "\ufeff".encode("utf-16-le") + ORDERS.replace("\n", "\r\n").encode("utf-16-le"),
    )
    yield Case(
        "att_notepad_utf16",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text("anbei"), utf16)),
        "read",
        "Notepad 'Unicode': UTF-16 with BOM and CRLF",
        orders=list(ORDER_LINES),
        text_from="attachment befehle.txt",
    )
    notes = attachment(
        "text/plain; charset=utf-8", "notizen.txt", b"Strategie: erst Pech, dann Langsam\n"
    )
    yield read(
        "att_orders_in_body_and_notes",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), notes)),
        "orders in the body win over an attached text file",
    )
    inline_img = part(
        "image/png", opaque(800), "base64", 'Content-Disposition: inline; filename="smiley.png"\n'
    )
    yield read(
        "att_inline_image",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), inline_img)),
        "an inline image",
    )
    pdf = attachment("application/pdf", "Befehle.pdf", opaque(5000))
    yield read(
        "att_pdf_with_remark",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text("Befehle im PDF, siehe Anhang.\n"), pdf)),
        "a PDF is not read; the remark is the only line",
        ["Befehle im PDF, siehe Anhang."],
    )
    rfc2231 = part(
        "text/plain; charset=utf-8",
        ORDERS,
        "base64",
        "Content-Disposition: attachment;\n filename*=UTF-8''Befehle%20f%C3%BCr%20Runde%203.txt\n",
    )
    yield Case(
        "att_rfc2231_filename",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text("Gruß, Egon"), rfc2231)),
        "read",
        "RFC 2231 encoded file name",
        orders=list(ORDER_LINES),
        text_from="attachment Befehle für Runde 3.txt",
    )
    tnef = attachment("application/ms-tnef", "winmail.dat", opaque(2000))
    yield read(
        "att_winmail_dat_beside_plain",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), tnef)),
        "Exchange winmail.dat beside the text",
    )
    no_code = attachment(
        "text/plain; charset=utf-8", "befehle.txt", "\n".join(ORDER_LINES[1:]).encode()
    )
    yield Case(
        "att_code_in_body_orders_attached",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text("Hallo,\nCode: EGON-1234\nBefehle anbei.\n"), no_code)),
        "read",
        "the Code: line of the cover note comes first",
        orders=list(ORDER_LINES),
        text_from="attachment befehle.txt",
    )
    vcard = attachment(
        "text/x-vcard; charset=utf-8", "egon.vcf", b"BEGIN:VCARD\nFN:Egon\nEND:VCARD\n"
    )
    yield read(
        "att_vcard_beside_orders",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), vcard)),
        "a business card",
    )
    yield read(
        "att_txt_beside_body_orders",
        ATTACHMENTS,
        eml(head(), multipart("mixed", text(BODY), befehle)),
        "orders in body and in befehle.txt: the body",
    )


def crypto() -> Iterator[Case]:
    sig = attachment("application/pkcs7-signature", "smime.p7s", opaque(1500))
    signed = multipart(
        "signed",
        text(BODY, cte="quoted-printable"),
        sig,
        params='; protocol="application/pkcs7-signature"; micalg=sha-256',
    )
    yield read(
        "smime_signed", CRYPTO, eml(head(), signed), "S/MIME signed: the signed text is read"
    )
    outlook_sig = attachment("application/x-pkcs7-signature", "smime.p7s", opaque(1500))
    nested = multipart(
        "signed",
        multipart("alternative", text(BODY), html(_divs(ORDER_LINES)), boundary="b2"),
        outlook_sig,
        params='; protocol="application/x-pkcs7-signature"',
    )
    yield read(
        "smime_signed_outlook_alternative",
        CRYPTO,
        eml(head(), nested),
        "Outlook S/MIME around an alternative",
    )
    p7m = 'name="smime.p7m"'
    p7m_file = 'Content-Disposition: attachment; filename="smime.p7m"\n'
    yield read(
        "smime_opaque_signed_plain",
        CRYPTO,
        eml(
            head(),
            part(f"application/pkcs7-mime; smime-type=signed-data; {p7m}",
                 smime_blob("opaque_plain"), "base64", p7m_file),
        ),
        "opaque-signed S/MIME (DER) around text/plain: the text inside is read, unverified",
    )  # fmt: skip
    yield read(
        "smime_opaque_signed_multipart",
        CRYPTO,
        eml(
            head(),
            part(f"application/x-pkcs7-mime; smime-type=signed-data; {p7m}",
                 smime_blob("opaque_multipart_ber"), "base64", p7m_file),
        ),
        "Outlook-style opaque-signed S/MIME (BER, chunked) around multipart/alternative",
        ["Hallo,", *ORDER_LINES, "Gruß Egon"],
    )  # fmt: skip
    opaque_signed = part(
        f"application/pkcs7-mime; smime-type=signed-data; {p7m}", opaque(3000), "base64", p7m_file
    )
    yield no_orders(
        "smime_opaque_signed",
        CRYPTO,
        eml(head(), opaque_signed),
        "labelled opaque-signed, but the body is no CMS structure: nothing to read",
    )
    enveloped = part(
        'application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"',
        opaque(3000, 3),
        "base64",
    )
    yield encrypted(
        "smime_encrypted",
        CRYPTO,
        eml(head(), enveloped),
        "S/MIME encrypted: cannot be read, the player is told so",
        "S/MIME",
    )
    yield encrypted(
        "smime_encrypted_outlook_no_smime_type",
        CRYPTO,
        eml(head(), part(f"application/x-pkcs7-mime; {p7m}", smime_blob("enveloped"), "base64")),
        "real EnvelopedData under x-pkcs7-mime without smime-type: known by its content type",
        "S/MIME",
    )
    pgp_sig = part('application/pgp-signature; name="signature.asc"', armoured("SIGNATURE"))
    pgp_signed = multipart(
        "signed",
        text(BODY, cte="quoted-printable"),
        pgp_sig,
        params='; micalg=pgp-sha256; protocol="application/pgp-signature"',
    )
    yield read("pgp_mime_signed", CRYPTO, eml(head(), pgp_signed), "PGP/MIME signed")
    pgp_enc = multipart(
        "encrypted",
        part("application/pgp-encrypted", "Version: 1\n"),
        part('application/octet-stream; name="encrypted.asc"', armoured("MESSAGE")),
        params='; protocol="application/pgp-encrypted"',
    )
    yield encrypted(
        "pgp_mime_encrypted",
        CRYPTO,
        eml(head(), pgp_enc),
        "PGP/MIME encrypted: cannot be read, the player is told so",
        "PGP",
    )
    clear = f"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n{ORDERS}- -- \nEgon\n" + armoured(
        "SIGNATURE"
    )
    yield read(
        "pgp_inline_clearsigned",
        CRYPTO,
        eml(head(), text(clear)),
        "inline clear-signed: armour and signature go",
    )
    greeting = (
        "Hallo,\n\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\nCharset: UTF-8\n\n"
        + ORDERS
        + armoured("SIGNATURE")
    )
    yield read(
        "pgp_inline_clearsigned_greeting",
        CRYPTO,
        eml(head(), text(greeting)),
        "clear-signed text below an unsigned greeting",
        ["Hallo,", *ORDER_LINES],
    )
    dashes = (
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
        + ORDERS
        + "- ---\n- -Ende der Liste\n"
        + armoured("SIGNATURE")
    )
    yield read(
        "pgp_inline_dash_escaped",
        CRYPTO,
        eml(head(), text(dashes)),
        "dash-escaped lines are undone",
        [*ORDER_LINES, "---", "-Ende der Liste"],
    )
    yield encrypted(
        "pgp_inline_encrypted",
        CRYPTO,
        eml(head(), text(armoured("MESSAGE"))),
        "an inline encrypted block: no line to read, the player is told it is encrypted",
        "PGP",
    )
    key = attachment(
        "application/pgp-keys", "0xDEADBEEF.asc", armoured("PUBLIC KEY BLOCK").encode(), "7bit"
    )
    yield read(
        "pgp_signed_with_key_attached",
        CRYPTO,
        eml(head(), multipart("mixed", text(BODY), key)),
        "a public key attached",
    )
    enigmail = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\n" + ORDERS + armoured("SIGNATURE")
    yield read(
        "pgp_inline_latin1_qp",
        CRYPTO,
        eml(head(), text(enigmail, "iso-8859-1", "quoted-printable")),
        "old Enigmail: inline signed, Latin-1, quoted-printable",
    )


def flowed() -> Iterator[Case]:
    tb = ORDERS.replace("A. Langsam 19, 15", "A. Langsam \n19, 15") + "\n-- \nEgon\n"
    yield read(
        "flowed_thunderbird",
        FLOWED,
        eml(head(), text(tb, params="; format=flowed")),
        "a soft line break joined",
    )
    apple = ORDERS.replace("H. Glück", "H. Gl \nück") + "\nGruß\n"
    yield read(
        "flowed_delsp_apple",
        FLOWED,
        eml(head(), text(apple, params="; format=flowed; delsp=yes")),
        "delsp=yes: the space before the break is removed",
        [*ORDER_LINES, "Gruß"],
    )
    stuffed = ORDERS.replace("Duelle", " Duelle")
    yield read(
        "flowed_space_stuffed",
        FLOWED,
        eml(head(), text(stuffed, params="; format=flowed")),
        "space-stuffing removed",
    )
    quoted = ORDERS + "\n> Ihre Gegner: A. Langsam, \n> V. Pech.\n"
    yield read(
        "flowed_with_quote",
        FLOWED,
        eml(head(), text(quoted, params="; format=flowed")),
        "a flowed quote is left out",
    )
    yield read(
        "flowed_qp_latin9",
        FLOWED,
        eml(head(), text(BODY, "iso-8859-15", "quoted-printable", "; format=flowed")),
        "flowed, Latin-9, quoted-printable",
    )


def replies() -> Iterator[Case]:
    gm = "Spielleiter <gm@gm.test>"
    outlook_block = "Von: Spielleiter <gm@gm.test>\nGesendet: Sonntag, 22. November 2026 10:00\n"
    gmx_block = (
        'Gesendet: Sonntag, 22. November 2026 um 10:00 Uhr\nVon: "Spielleiter" <gm@gm.test>\n'
    )
    yahoo = f"Am Sonntag, 22. November 2026, 10:00:00 MEZ hat {gm} Folgendes geschrieben:\n"
    old = "Duelle\nA. Langsam 1, 2\n"
    shapes = {
        "reply_gmail_top": f"{ORDERS}\nAm So., 22. Nov. 2026 um 10:00 Uhr schrieb Spielleiter <\n"
        f"gm@gm.test>:\n\n{WELCOME_QUOTE}",
        "reply_thunderbird_bottom": f"Am 22.11.26 um 10:00 schrieb Spielleiter:\n{WELCOME_QUOTE}\n"
        + ORDERS,
        "reply_outlook_original_message": f"{ORDERS}\n-----Ursprüngliche Nachricht-----\n"
        f"Von: Spielleiter\nBetreff: Willkommen\n\n{old}",
        "reply_outlook_header_block": f"{ORDERS}\n{outlook_block}An: egon@example.org\n"
        f"Betreff: Willkommen\n\n{old}",
        "reply_gmx_gesendet_block": f"{ORDERS}\n\n{gmx_block}An: egon@example.org\n"
        f"Betreff: Willkommen\n{old}",
        "reply_apple_attribution": f"{ORDERS}\n> Am 22.11.2026 um 10:00 schrieb {gm}:\n> \n"
        + WELCOME_QUOTE,
        "reply_english_wrote": f"{ORDERS}\nOn Sun, Nov 22, 2026 at 10:00 AM {gm} wrote:\n"
        + WELCOME_QUOTE,
        "reply_yahoo_unquoted": f"{ORDERS}\n\n{yahoo}\n  Hallo E. Müller,\n  Duelle\n",
        "reply_outlook_underscore_rule": f"{ORDERS}\n" + "_" * 32 + "\nVon: Spielleiter\nDuelle\n",
    }
    for name, body in shapes.items():
        yield read(
            name,
            REPLIES,
            eml(head("Re: [hn1] Willkommen"), text(body)),
            name.split("_", 1)[1].replace("_", " "),
        )
    interleaved = (
        "> Ihre Gegner in Runde 1: A. Langsam, V. Pech.\nCode: EGON-1234\nDuelle\n"
        "> Ihr Code: EGON-1234\nA. Langsam 19, 15\n"
    )
    yield read(
        "reply_interleaved",
        REPLIES,
        eml(head("Re: [hn1]"), text(interleaved)),
        "answers between quoted lines",
        ["Code: EGON-1234", "Duelle", "A. Langsam 19, 15"],
    )
    same = "Code: EGON-1234\nwie letzte Runde\n\n> Duelle\n> A. Langsam 19, 15\n"
    yield read(
        "reply_only_quoted_orders",
        REPLIES,
        eml(head("Re: [hn1]"), text(same)),
        "quoted old orders are not orders; the rest is read",
        ["Code: EGON-1234", "wie letzte Runde"],
    )


def clients() -> Iterator[Case]:
    shapes = [
        (
            "client_iphone",
            ORDERS + "\nVon meinem iPhone gesendet\n",
            "utf-8",
            None,
            "iPhone: phone signature",
        ),
        (
            "client_android_emoji",
            ORDERS.replace("H. Glück", "H. Glück 🔫")
            + "\nGesendet von meinem Samsung Galaxy Smartphone.\n",
            "utf-8",
            "base64",
            "Android: emoji and a phone signature",
        ),
        (
            "client_outlook_mobile",
            ORDERS + "\nGet Outlook for Android\n",
            "utf-8",
            "quoted-printable",
            "Outlook for Android",
        ),
        (
            "client_k9",
            ORDERS + "\n-- \nSent from my Android device with K-9 Mail.\n",
            "utf-8",
            None,
            "K-9 Mail",
        ),
        (
            "client_tonline",
            BODY,
            "iso-8859-15",
            "quoted-printable",
            "T-Online webmail: Latin-9 quoted-printable",
        ),
        ("client_lotus_notes", ORDERS, "iso-8859-1", "quoted-printable", "Lotus Notes: Latin-1"),
        (
            "client_macos_nfd",
            ORDERS.replace("ü", "u\u0308") + "\n",
            "utf-8",
            "quoted-printable",
            "macOS: decomposed umlauts",
        ),
        (
            "client_windows_crlf",
            BODY.replace("\n", "\r\n"),
            "windows-1252",
            None,
            "Windows: CRLF line ends",
        ),
        (
            "client_webde_mobile",
            ORDERS + "\nGesendet mit der WEB.DE Mail App\n",
            "utf-8",
            "quoted-printable",
            "web.de app",
        ),
        ("client_gmx_plain", BODY, "UTF-8", "quoted-printable", "GMX webmail plain text"),
    ]
    for name, body, charset, cte, why in shapes:
        raw = eml(head(extra="X-Mailer: corpus\n"), text(body, charset, cte))
        yield read(name, CLIENTS, raw, why)
    tnef = attachment("application/ms-tnef", "winmail.dat", opaque(3000))
    yield no_orders(
        "client_exchange_tnef_only",
        CLIENTS,
        eml(head(), multipart("mixed", tnef)),
        "Exchange sent only winmail.dat (rich text): nothing readable",
    )
    gmx = multipart(
        "alternative",
        text(BODY, "UTF-8", "quoted-printable"),
        html(_divs(ORDER_LINES), "UTF-8", "quoted-printable"),
    )
    yield read(
        "client_gmx_html",
        CLIENTS,
        eml(head(extra="X-UI-Message-Type: mail\n"), gmx),
        "GMX webmail HTML mail",
    )
