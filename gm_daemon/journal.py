"""The daemon's log as the GM reads it in the journal, or a log collector reads it as JSON.

A daemon's life should be readable from its log alone: which version started with which games
on which transport, what a reload changed, why it stopped and what it sent on the way out.
Those lines carry an ``event`` (start, reload, stop, refused) and their facts as fields, so
``--log-format json`` gives a collector the same facts without parsing sentences.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # every command sets up logging; most need no config to do it
    from gm_daemon.config import Config, GameConfig

LogFormat = Literal["text", "json"]
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
GAMES_NAMED = 20  # a start line names this many games, then counts the rest

# The attributes every LogRecord has; anything else on a record came in by ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, the record's extra
    fields, and a traceback as one string (a multi-line traceback would break the line
    framing a collector relies on)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup_logging(level: int, log_format: LogFormat = "text") -> None:
    handler = logging.StreamHandler()
    json_lines = log_format == "json"
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # it logs every re-armed timer


@contextlib.contextmanager
def log_level(level: str) -> Iterator[None]:
    """``[daemon] log_level`` while the daemon runs; the level before it afterwards (the
    daemon may run inside another program, e.g. a test)."""
    root = logging.getLogger()
    before = root.level
    root.setLevel(level)
    try:
        yield
    finally:
        root.setLevel(before)


def games_text(config: Config) -> str:
    names = [f"{game.id} ({game.kind})" for game in config.games[:GAMES_NAMED]]
    more = len(config.games) - GAMES_NAMED
    if more > 0:
        names.append(f"and {more} more")
    count = len(config.games)
    return f"{count} game{'' if count == 1 else 's'}" + (": " + ", ".join(names) if names else "")


def transport_text(config: Config) -> str:
    """Where mail comes from and goes to; never a password."""
    mail = config.mail
    if mail.transport == "maildir":
        return f"maildir (in {mail.maildir.inbox}, out {mail.maildir.outbox})"
    if mail.transport == "lmtp":
        lmtp, smtp = mail.lmtp, mail.smtp
        assert smtp is not None  # the config guarantees it
        where = lmtp.socket or f"{lmtp.host}:{lmtp.port}"
        return f"lmtp (listening on {where}), smtp {smtp.host}:{smtp.port} ({smtp.security})"
    imap, smtp = mail.imap, mail.smtp
    assert imap is not None and smtp is not None  # the config guarantees both
    return (
        f"imap {imap.username}@{imap.host}:{imap.port} ({imap.security}, folder {imap.folder}), "
        f"smtp {smtp.host}:{smtp.port} ({smtp.security})"
    )


def config_changes(old: Config, new: Config) -> dict[str, list[str]]:
    """What a reload changed: games added, removed, and changed (with the keys that
    changed), and the other sections that changed."""
    before = {game.id: game for game in old.games}
    after = {game.id: game for game in new.games}
    return {
        "added": [game_id for game_id in after if game_id not in before],
        "removed": [game_id for game_id in before if game_id not in after],
        "changed": [
            f"{game_id} ({', '.join(keys)})"
            for game_id, game in after.items()
            if game_id in before and (keys := _changed_keys(before[game_id], game))
        ],
        "sections": [
            f"[{name}]"
            for name in ("daemon", "mail")
            if getattr(old, name).model_dump() != getattr(new, name).model_dump()
        ],
    }


def changes_text(changes: dict[str, list[str]]) -> str:
    parts = [
        f"{what} {', '.join(items)}"
        for what, items in (
            ("games added:", changes["added"]),
            ("games removed:", changes["removed"]),
            ("games changed:", changes["changed"]),
            ("settings changed:", changes["sections"]),
        )
        if items
    ]
    return "; ".join(parts) or "nothing changed"


def _changed_keys(old: GameConfig, new: GameConfig) -> list[str]:
    before, after = old.model_dump(), new.model_dump()
    return [key for key in after if before.get(key) != after[key]]
