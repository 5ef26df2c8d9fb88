"""Fixtures of the mail tests. The real mail stack comes from tests/mailstack/fixture.py; it is
imported here until tests/conftest.py registers that plugin for the whole suite."""

from tests.mailstack.fixture import empty_mailstack, mailstack

__all__ = ["empty_mailstack", "mailstack"]
