"""What the daemon knows about one mail on its way through intake: the envelope it reads
itself (code and game lines), what the guards learn (the sender's seats, the game, a command),
and the services guards and commands may use (the referee, the mailer, the inbox's count of
recent mails) — everything below intake, so nothing calls back up into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from gm_daemon.config import Config
from gm_daemon.games.protocol import Line
from gm_daemon.loaded import Loaded
from gm_daemon.mail.message import Incoming
from gm_daemon.mailer import Mailer
from gm_daemon.store import InboxRow, PlayerRow
from gm_daemon.texts import Text

if TYPE_CHECKING:
    from gm_daemon.commands import Command
    from gm_daemon.referee import Referee

# The lines the core reads itself: the player's code ("Code: X", "Code X", "Mein Code: X")
# and the game ("Spiel: hn1", with its colon). Phase headers belong to the games.
_HEADER = re.compile(
    r"^\s*[\"'„“‚‘»«]?\s*(?:(?P<game>spiel|game)\s*[:=]\s*(?P<game_id>\S+)"
    r"|(?:mein\s+|my\s+)?code\b\s*[:=]?\s*(?P<code>[^\s:=].*?)"
    r")\s*$",
    re.IGNORECASE,
)


@dataclass
class Envelope:
    """What the daemon reads out of a mail before it knows the game."""

    code: str | None = None
    code_line: int | None = None
    game: str | None = None
    lines: list[Line] = field(default_factory=list)


def read_envelope(lines: Sequence[Line]) -> Envelope:
    """Split the code and game lines from the rest."""
    envelope = Envelope()
    for line in lines:
        match = _HEADER.match(line.text)
        if match is None:
            envelope.lines.append(line)
        elif match["code"]:
            envelope.code = match["code"]
            envelope.code_line = line.no
        else:
            envelope.game = match["game_id"].strip("[]\"'„“”»«")
    return envelope


@dataclass
class Mail:
    """A mail on its way through the guards, with what each guard learnt about it."""

    row: InboxRow
    incoming: Incoming
    envelope: Envelope
    players: list[PlayerRow] = field(default_factory=list)  # the sender's seats
    game_or_none: Loaded | None = None
    sender_or_none: PlayerRow | None = None
    command: Command | None = None
    args: str = ""
    lines: list[Line] = field(default_factory=list)
    stale_header: str | None = None
    # orders read off the current header's line ("Runde 1: N+, O+"): the line as written
    header_lines: dict[int, str] = field(default_factory=dict)
    quiet: bool = False  # over the sender's rate limit: only valid orders are acknowledged
    withheld: str = ""  # why an answer was not sent, for the inbox verdict

    @property
    def game(self) -> Loaded:
        assert self.game_or_none is not None, "only after the game guard"
        return self.game_or_none

    @game.setter
    def game(self, loaded: Loaded) -> None:
        self.game_or_none = loaded

    @property
    def sender(self) -> PlayerRow:
        assert self.sender_or_none is not None, "only after the game guard"
        return self.sender_or_none

    @sender.setter
    def sender(self, player: PlayerRow) -> None:
        self.sender_or_none = player


class Services(NamedTuple):
    """What guards and commands may use; all of it lies below intake."""

    referee: Referee
    mailer: Mailer
    clock: Callable[[], datetime]
    recent_from: Callable[[str, datetime, int], int]  # mails from an address since, up to id
    answered_since: Callable[[str, str, datetime], bool]  # (recipient, purpose, since)

    @property
    def config(self) -> Config:
        return self.referee.config

    def notice(self, mail: Mail, subject_key: str, body: str, **subject: str) -> Text:
        """A short answer to the sender of ``mail``, in his language (his own, else the game's)."""
        return self.mailer.notice_text(mail.game.lang, mail.sender, subject_key, body, **subject)
