"""Suite-wide fixtures: the real Postfix + Dovecot stack (tests/mailstack/) for every test
marked ``mailstack``; and the Hypothesis profiles.

The suite that gates a change (``scripts/test``, CI) draws the same generated cases on every
run: a red run must be the change's fault, not the dice, and a case that fails once fails
again. New cases are drawn by the ``explore`` profile, a long run of its own
(``.venv/bin/pytest --hypothesis-profile=explore``); whatever it finds becomes an
``@example`` on the test (or a fix of the test), so the gate keeps it for good."""

from hypothesis import settings

from tests.mailstack.fixture import empty_mailstack, mailstack

settings.register_profile("gate", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("gate")

__all__ = ["empty_mailstack", "mailstack"]
