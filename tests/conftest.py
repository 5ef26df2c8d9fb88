"""Suite-wide fixtures: the real Postfix + Dovecot stack (tests/mailstack/) for every test
marked ``mailstack``."""

from tests.mailstack.fixture import empty_mailstack, mailstack

__all__ = ["empty_mailstack", "mailstack"]
