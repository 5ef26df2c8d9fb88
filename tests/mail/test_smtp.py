"""SmtpSender against the real Postfix on loopback: delivery, TLS modes, error classes."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from typing import TypeVar

import pytest

from gm_daemon.mail.smtp import Security, SmtpSender
from gm_daemon.mail.transport import SendError
from tests.mailstack import MailStack

T = TypeVar("T")
PORTS = {"none": "smtp_port", "starttls": "smtp_port", "tls": "smtps_port"}


def _message(token: str, to: str = "player1@players.test") -> bytes:
    """A mail as the outbox stores it: built once, serialised for SMTP (CRLF)."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "Spielleiter <gm@gm.test>"
    msg["To"] = to
    msg["Subject"] = f"Ergebnis Runde 3 – {token}"
    msg["Message-ID"] = f"<{token}@gm.test>"
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content(f"Billy fällt. {token}\n")
    return bytes(msg)


def _sender(stack: MailStack, security: Security = "none", **kwargs: object) -> SmtpSender:
    port = getattr(stack, PORTS[security])
    options: dict[str, object] = {"ssl_context": stack.ssl_context(), **kwargs}
    return SmtpSender(stack.host, port, security, local_hostname="gm.test", **options)  # type: ignore[arg-type]


def _run(sender: SmtpSender, scenario: Callable[[SmtpSender], Awaitable[T]]) -> T:
    async def wrapped() -> T:
        try:
            return await scenario(sender)
        finally:
            await sender.close()

    return asyncio.run(wrapped())


def _bodies(stack: MailStack, user: str, count: int) -> list[EmailMessage]:
    raw = stack.wait_for_messages(user, count)
    return [email.message_from_bytes(r, policy=email.policy.default) for r in raw]  # type: ignore[misc]


@pytest.mark.mailstack
@pytest.mark.parametrize(
    ("security", "login"), [("none", False), ("starttls", True), ("tls", True), ("none", True)]
)
def test_delivers_to_a_player_mailbox(
    empty_mailstack: MailStack, security: Security, login: bool
) -> None:
    stack = empty_mailstack
    credentials = {"username": stack.gm, "password": stack.users[stack.gm]} if login else {}
    sender = _sender(stack, security, **credentials)

    async def scenario(sender: SmtpSender) -> bool:
        await sender.send(_message("a"), stack.gm, ["player1@players.test"])
        await sender.send(_message("b"), stack.gm, ["player1@players.test", "player2@players.test"])
        client = sender._client
        assert client is not None
        return client.get_transport_info("cipher") is not None

    encrypted = _run(sender, scenario)
    assert encrypted == (security != "none")
    first = _bodies(stack, "player1@players.test", 2)
    assert sorted(str(m["Message-ID"]) for m in first) == ["<a@gm.test>", "<b@gm.test>"]
    texts = sorted(m.get_content().replace("\r\n", "\n") for m in first)
    assert texts == ["Billy fällt. a\n", "Billy fällt. b\n"]
    (second,) = _bodies(stack, "player2@players.test", 1)
    assert second["Subject"] == "Ergebnis Runde 3 – b"


@pytest.mark.mailstack
def test_unknown_domain_and_user_are_permanent(empty_mailstack: MailStack) -> None:
    async def scenario(sender: SmtpSender) -> list[SendError]:
        errors = []
        for rcpt in ("egon@example.org", "nobody@players.test"):
            with pytest.raises(SendError) as caught:
                await sender.send(_message("x", rcpt), "gm@gm.test", [rcpt])
            errors.append(caught.value)
        await sender.send(_message("still-open"), "gm@gm.test", ["player1@players.test"])
        return errors

    relay, user = _run(_sender(empty_mailstack), scenario)
    assert relay.permanent and "Relay access denied" in str(relay)
    assert user.permanent and "nobody@players.test" in str(user)
    assert len(empty_mailstack.wait_for_messages("player1@players.test", 1)) == 1


@pytest.mark.mailstack
def test_partly_refused_is_permanent_but_delivered_to_the_rest(empty_mailstack: MailStack) -> None:
    async def scenario(sender: SmtpSender) -> SendError:
        with pytest.raises(SendError) as caught:
            await sender.send(
                _message("p"), "gm@gm.test", ["nobody@players.test", "player3@players.test"]
            )
        return caught.value

    error = _run(_sender(empty_mailstack), scenario)
    assert error.permanent and "sent to the others" in str(error)
    assert len(empty_mailstack.wait_for_messages("player3@players.test", 1)) == 1


@pytest.mark.mailstack
def test_wrong_password_is_transient(mailstack: MailStack) -> None:
    sender = _sender(mailstack, "starttls", username=mailstack.gm, password="wrong")

    async def scenario(sender: SmtpSender) -> SendError:
        with pytest.raises(SendError) as caught:
            await sender.send(_message("w"), "gm@gm.test", ["player1@players.test"])
        return caught.value

    error = _run(sender, scenario)
    assert not error.permanent and "login" in str(error)


def test_unreachable_server_is_transient() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sender = SmtpSender("127.0.0.1", port, "none", local_hostname="gm.test", timeout=2)

        async def scenario(sender: SmtpSender) -> SendError:
            with pytest.raises(SendError) as caught:
                await sender.send(_message("u"), "gm@gm.test", ["player1@players.test"])
            return caught.value

        assert not _run(sender, scenario).permanent


@pytest.mark.mailstack
def test_reconnects_after_the_connection_dropped(empty_mailstack: MailStack) -> None:
    async def scenario(sender: SmtpSender) -> None:
        await sender.send(_message("before"), "gm@gm.test", ["player1@players.test"])
        client = sender._client
        assert client is not None and client.transport is not None
        client.transport.abort()  # as if the server had timed us out
        await asyncio.sleep(0.05)
        await sender.send(_message("after"), "gm@gm.test", ["player1@players.test"])

    _run(_sender(empty_mailstack), scenario)
    found = _bodies(empty_mailstack, "player1@players.test", 2)
    assert sorted(str(m["Message-ID"]) for m in found) == ["<after@gm.test>", "<before@gm.test>"]


def test_configuration_errors_name_the_key() -> None:
    with pytest.raises(ValueError, match=r"mail\.smtp\.security"):
        SmtpSender("h", 25, "ssl", local_hostname="gm.test")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="local_hostname"):
        SmtpSender("h", 25, "none", local_hostname="")
