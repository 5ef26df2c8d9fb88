"""The static web site of every game: public results, pictures, deadlines as calendars
and feeds, written as files any web server can serve (docs/site.md).

``SiteBuilder`` writes pages (``gm-daemon site`` builds them all); ``SitePublisher`` is the
daemon's hook, rebuilding a game's pages after a change of what is public.
"""

from gm_daemon.site.build import SiteBuilder
from gm_daemon.site.publish import SitePublisher

__all__ = ["SiteBuilder", "SitePublisher"]
