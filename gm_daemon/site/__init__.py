"""The static web site of every game: public results, pictures, deadlines as calendars
and feeds, written as files any web server can serve (docs/site.md).

``SiteBuilder`` writes pages (``gm-daemon site`` builds them all); ``SitePublisher`` is the
daemon's hook, rebuilding a game's pages after a change of what is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm_daemon.site.build import SiteBuilder
    from gm_daemon.site.publish import SitePublisher

__all__ = ["SiteBuilder", "SitePublisher"]


def __getattr__(name: str) -> Any:
    """Both imported on first use: the daemon imports ``site.publish`` on every start, and
    without [site] in the config it never needs the builder's pages, pictures and feeds."""
    if name == "SiteBuilder":
        from gm_daemon.site.build import SiteBuilder

        return SiteBuilder
    if name == "SitePublisher":
        from gm_daemon.site.publish import SitePublisher

        return SitePublisher
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
