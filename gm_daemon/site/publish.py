"""The daemon's side of the site: after each pass of its loop, the pages of every game whose
public facts changed (a resolution, a start, a moved deadline, a pause, orders in) are
written again, and the index with them. Nothing here may break mail handling: a failure is
logged and the next pass tries again.

What changed is told by a fingerprint per game (phase, deadline, paused, finished, waiting,
held, who has orders on file), read for all games in one query and kept, hashed, in the
site folder, so a restart does not rebuild a thousand games that did not change.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from gm_daemon.config import Config
from gm_daemon.store import Store

if TYPE_CHECKING:  # imported on first use: a daemon without [site] never loads the builder
    from gm_daemon.site.build import SiteBuilder

log = logging.getLogger(__name__)
BUILT = ".built.json"  # the fingerprints of the pages on disk

_FACTS = """
SELECT g.id, g.phase, g.deadline_at, g.paused, g.finished, g.waiting, g.held,
       (SELECT group_concat(o.seat) FROM orders o WHERE o.game_id = g.id AND o.phase = g.phase)
FROM games g
"""


class SitePublisher:
    def __init__(self, store: Store, clock: Callable[[], datetime]):
        self.store = store
        self.clock = clock
        self._builder: SiteBuilder | None = None
        self._built: dict[str, str] | None = None

    def refresh(self, config: Config) -> list[str]:
        """Rebuild what changed since the last pass; the ids of the games rebuilt. Never
        raises: the site is a courtesy, the mail is the service."""
        if config.site is None:
            return []
        try:
            return self._refresh(config)
        except Exception:
            log.exception("the web site could not be written; the next pass tries again")
            self._built = None  # read again from disk: what was written stays valid
            return []

    def _refresh(self, config: Config) -> list[str]:
        from gm_daemon.site.build import write

        builder = self._builder_for(config)
        built = self._fingerprints(builder)
        facts = self._facts(config)
        changed = [game_id for game_id, print_ in facts.items() if built.get(game_id) != print_]
        for game_id in changed:
            builder.game(game_id)
            built[game_id] = facts[game_id]
            write(builder.out / BUILT, json.dumps(built, sort_keys=True).encode())
        if changed:
            log.info("web site: pages of %s written", ", ".join(changed))
        return changed

    def _builder_for(self, config: Config) -> SiteBuilder:
        """One builder per config: a reload (new titles, a new [site]) starts afresh."""
        if self._builder is None or self._builder.config is not config:
            from gm_daemon.site.build import SiteBuilder

            self._builder = SiteBuilder(config, self.store, clock=self.clock)
            self._built = None
        return self._builder

    def _fingerprints(self, builder: SiteBuilder) -> dict[str, str]:
        if self._built is None:
            try:
                self._built = dict(json.loads((builder.out / BUILT).read_text("utf-8")))
            except (OSError, ValueError):
                self._built = {}
        return self._built

    def _facts(self, config: Config) -> dict[str, str]:
        """Each configured game's fingerprint, with its config (a new title shows too)."""
        configured = {g.id: g.model_dump_json() for g in config.games}
        facts = {}
        for row in self.store.db.execute(_FACTS):
            if row[0] in configured:
                text = json.dumps([list(row), configured[row[0]]], default=str)
                facts[row[0]] = hashlib.sha256(text.encode()).hexdigest()[:16]
        return facts
