"""Suite-wide fixtures: the real Postfix + Dovecot stack (tests/mailstack/) for every test
marked ``mailstack``; the Hypothesis profiles; and a cache folder of the session's own.

The suite that gates a change (``scripts/test``, CI) draws the same generated cases on every
run: a red run must be the change's fault, not the dice, and a case that fails once fails
again. New cases are drawn by the ``explore`` profile, a long run of its own
(``.venv/bin/pytest --hypothesis-profile=explore``); whatever it finds becomes an
``@example`` on the test (or a fix of the test), so the gate keeps it for good."""

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

from tests.mailstack.fixture import empty_mailstack, mailstack

# Analysed grammars (gm_daemon.grammar) are kept in a folder of this run's, not in the
# user's ~/.cache, and shared with the daemons the tests start as processes.
_CACHE = tempfile.mkdtemp(prefix="gm-test-cache-")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
os.environ.pop("CACHE_DIRECTORY", None)
os.environ["XDG_CACHE_HOME"] = _CACHE

settings.register_profile("gate", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("gate")

__all__ = ["empty_mailstack", "mailstack"]
