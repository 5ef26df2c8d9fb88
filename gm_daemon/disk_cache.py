"""Files the daemon keeps between runs to start quicker: analysed grammars (``grammar``) and
parsed TOML files (``parsed_toml``). Such a file is a convenience only: whatever is wrong with
it (no folder, a read-only or full disk, a damaged, torn or foreign file) means the work is
done again as if there were none, quietly. Each kind names its files by a digest of
everything the content depends on, so a stale file is never even opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# The first line of a parsed TOML file, followed by the SHA-256 of the rest (its JSON)
_TOML_MAGIC = b"gm-daemon parsed toml 1 "
# Parsed files kept at most (a club's config and the catalogues of its games: a handful)
TOML_KEPT = 32


def cache_dir(kind: str) -> Path | None:
    """The folder for one kind of file: systemd's ``CacheDirectory=`` (``$CACHE_DIRECTORY``),
    else the user's XDG cache (``$XDG_CACHE_HOME``, ``~/.cache``); None without a home."""
    systemd = os.environ.get("CACHE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd) / kind
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):  # the XDG spec: a relative path is to be ignored
        return Path(xdg) / "gm-daemon" / kind
    home = os.path.expanduser("~")
    return None if home == "~" else Path(home) / ".cache" / "gm-daemon" / kind


def read(path: Path, magic: bytes) -> bytes | None:
    """The payload kept at ``path``, or None. Only a file of this user's that nobody else can
    write is read (what it holds is trusted as if computed here), and only when its first
    line is ``magic`` with the SHA-256 of the rest: a torn or damaged file is never half
    read."""
    try:
        with path.open("rb") as file:
            status = os.fstat(file.fileno())
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                log.debug("cache file %s: not this user's alone, not used", path)
                return None
            data = file.read()
    except OSError:
        return None
    head, _, payload = data.partition(b"\n")
    if head != magic + hashlib.sha256(payload).hexdigest().encode("ascii"):
        log.debug("cache file %s: damaged, not used", path)
        return None
    return payload


def write(path: Path, magic: bytes, payload: bytes) -> None:
    """Written to a file of its own (readable by this user only) and renamed into place, so a
    reader (another process starting at the same moment) sees the whole file or none. A
    folder that cannot be made or written (a read-only system, a full disk) only costs the
    next start the work."""
    head = magic + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n"
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(head + payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        log.debug("cache file %s not written: %s", path, exc)


def parsed_toml(text: str, source: Path) -> dict[str, Any]:
    """``tomllib.loads(text)`` of the file ``source``, kept as JSON under a digest of the text
    and of Python's version: the pure-Python TOML parser took ~10 ms of every start for the
    phrase catalogues and the config, reading their JSON ~0.3 ms. A text that is not valid
    TOML raises ``tomllib.TOMLDecodeError`` (a ``ValueError``) as ever; one whose parse JSON
    cannot give back as it is (dates and times, a NaN) is parsed every time. A file keeps
    one version: writing it removes what the file's earlier texts left."""
    folder = cache_dir("toml")
    if folder is None:
        return _parsed(text)
    where = hashlib.sha256(os.path.abspath(source).encode("utf-8", "surrogateescape"))
    stem = f"{source.stem}-{where.hexdigest()[:12]}"
    digest = hashlib.sha256(f"{sys.version}\0{text}".encode("utf-8", "surrogatepass"))
    path = folder / f"{stem}-{digest.hexdigest()[:32]}.json"
    kept = _kept_json(path)
    if kept is not None:
        return kept
    parsed = _parsed(text)
    _keep_json(path, parsed, stem)
    return parsed


def _parsed(text: str) -> dict[str, Any]:
    import tomllib  # not imported at all while every file is kept

    return tomllib.loads(text)


def _kept_json(path: Path) -> dict[str, Any] | None:
    payload = read(path, _TOML_MAGIC)
    if payload is None:
        return None
    try:
        kept = json.loads(payload)
    except ValueError:
        log.debug("cache file %s: unreadable, parsed again", path)
        return None
    return kept if isinstance(kept, dict) else None


def _keep_json(path: Path, parsed: dict[str, Any], stem: str) -> None:
    try:
        encoded = json.dumps(parsed, ensure_ascii=False)
    except TypeError:  # a date or time: JSON has none
        return
    if json.loads(encoded) != parsed:  # a NaN
        return
    _prune(path.parent, stem)
    write(path, _TOML_MAGIC, encoded.encode("utf-8"))


def _prune(folder: Path, stem: str) -> None:
    """Before a file's new version is written: its old versions go, and the files least
    recently written beyond the newest ``TOML_KEPT`` (configs tried once with ``check``
    from everywhere). Only a miss pays for this look at the folder."""
    try:
        kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:  # no folder yet, or a file gone while looked at: nothing to prune now
        return
    for number, old in enumerate(kept):
        if old.name.startswith(f"{stem}-") or number >= TOML_KEPT - 1:
            with contextlib.suppress(OSError):  # gone already, or a folder not ours to change
                old.unlink()
