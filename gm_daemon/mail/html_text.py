"""The readable text of an HTML body, for the HTML-only mails some clients send (Apple Mail,
phones). A module of its own: the standard library's HTML parser is imported with the first
such mail, not with every start of the daemon (~4 ms of each ``run --once``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# fmt: off
_BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "center", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table",
    "tbody", "thead", "tfoot", "tr", "ul",
})
# fmt: on
_WHITESPACE = re.compile(r"\s+")
_SPACE_RUN = re.compile(r" {2,}")
_SKIP_TAGS = frozenset({"script", "style", "head", "title", "template"})


class _HtmlText(HTMLParser):
    """Collects readable text: blocks and <br> end lines, <blockquote> lines get "> "."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line: list[str] = []
        self._depth = 0  # blockquote nesting
        self._skip = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, opening=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._flush(keep_empty=True)
        elif tag in _BLOCK_TAGS:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        self._tag(tag, opening=False)

    def _tag(self, tag: str, *, opening: bool) -> None:
        step = 1 if opening else -1
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip + step)
        elif tag == "br" and opening:
            self._flush(keep_empty=True)
        elif tag in ("td", "th") and not opening:
            self._line.append(" ")
        elif tag in _BLOCK_TAGS:
            self._flush()
            if tag == "blockquote":
                self._depth = max(0, self._depth + step)
            elif tag == "pre":
                self._pre = max(0, self._pre + step)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._pre:
            first, *rest = data.split("\n")
            self._line.append(first)
            for piece in rest:
                self._flush(keep_empty=True)
                self._line.append(piece)
        else:
            self._line.append(_WHITESPACE.sub(" ", data))

    def _flush(self, *, keep_empty: bool = False) -> None:
        content = "".join(self._line)
        self._line = []
        if not self._pre:
            content = _SPACE_RUN.sub(" ", content).strip()
        if content or keep_empty:
            prefix = "> " * self._depth
            self.lines.append((prefix + content).rstrip() if content else prefix.rstrip())

    def text(self) -> str:
        self._flush()
        return "\n".join(self.lines)


def html_to_text(html: str) -> str:
    """Readable text of an HTML body (for HTML-only mails such as Apple Mail's)."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # HTMLParser is lenient; keep whatever was collected
        pass
    return parser.text()
