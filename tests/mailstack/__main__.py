"""Run a test mail stack by hand until Ctrl-C: ``.venv/bin/python -m tests.mailstack``.

Prints ports, users and the certificate, e.g. to point a ``transport = "imap"`` config or a
mail client at it while debugging.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from tests.mailstack.stack import MailStack


def main() -> None:
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with MailStack() as stack:
        print(f"run dir   {stack.root}")
        print(
            f"SMTP      {stack.host}:{stack.smtp_port} (STARTTLS offered), SMTPS {stack.smtps_port}"
        )
        print(
            f"IMAP      {stack.host}:{stack.imap_port} (STARTTLS offered), IMAPS {stack.imaps_port}"
        )
        print(f"MX        {stack.host}:{stack.mx_port} (no AUTH: where other MTAs deliver)")
        print(f"cert      {stack.cert_path}")
        for address, password in stack.users.items():
            print(f"user      {address}  {password}")
        print("Ctrl-C stops and removes everything.", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait()


if __name__ == "__main__":
    main()
