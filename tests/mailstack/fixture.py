"""pytest plugin: the session-wide ``mailstack`` fixture (a started MailStack).

Register it once for the whole suite in tests/conftest.py::

    pytest_plugins = ["tests.mailstack.fixture"]

Tests that use it carry ``@pytest.mark.mailstack``. When Postfix/Dovecot are missing the
fixture fails loudly (CI must really run these tests); it skips only when
GM_TEST_ALLOW_SKIP_MAILSTACK=1 is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.mailstack.stack import MailStack, binaries_missing

ALLOW_SKIP = "GM_TEST_ALLOW_SKIP_MAILSTACK"

# One stack per test process even when the fixture gets registered from more than one
# conftest (each registration is its own fixture definition with its own session cache).
_shared: list[MailStack] = []


def _unavailable_reason() -> str | None:
    missing = binaries_missing()
    if missing:
        return f"not installed: {', '.join(missing)} (run scripts/install-mailstack.sh)"
    if os.geteuid() != 0:
        return "the private Postfix/Dovecot instances must be started as root"
    return None


def require_mailstack(reason: str | None) -> None:
    """Fail loudly when the stack cannot run (CI must run these tests); skip only when the
    environment explicitly allows it."""
    if reason is None:
        return
    if os.environ.get(ALLOW_SKIP) == "1":
        pytest.skip(f"mail stack unavailable: {reason}")
    pytest.fail(f"mail stack unavailable: {reason}; set {ALLOW_SKIP}=1 to skip instead")


@pytest.fixture(scope="session")
def mailstack(request: pytest.FixtureRequest) -> Iterator[MailStack]:
    """A running Postfix + Dovecot on loopback, shared by the whole test session."""
    require_mailstack(_unavailable_reason())
    if not _shared:
        stack = MailStack().start()
        _shared.append(stack)
        request.addfinalizer(_stop_shared)
    yield _shared[0]


def _stop_shared() -> None:
    while _shared:
        _shared.pop().stop()


@pytest.fixture
def empty_mailstack(mailstack: MailStack) -> MailStack:
    """The shared stack with every mailbox emptied first (UIDs still grow: match by content)."""
    mailstack.empty()
    return mailstack
