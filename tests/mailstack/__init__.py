"""A real Postfix + Dovecot on loopback for the mail tests (see stack.py, fixture.py)."""

from tests.mailstack.stack import MailStack, MailStackError, binaries_missing

__all__ = ["MailStack", "MailStackError", "binaries_missing"]
