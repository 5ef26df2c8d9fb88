"""The ways a file kept between runs gets damaged (a crash mid-write, a full disk, another
program's file, an older format), shared by the tests of each kind the daemon keeps (analysed
grammars, parsed TOML): each must be noticed, the work done again and the file replaced."""

from __future__ import annotations

from typing import Any

import pytest


def damages(format_word: bytes, tail: int) -> list[Any]:
    """Parameters for a ``spoil(data) -> data`` argument. ``format_word`` precedes the format's
    number on the file's first line; ``tail`` bytes at the end are zeroed in one case."""
    current, other = format_word + b" 1 ", format_word + b" 9 "
    return [
        pytest.param(lambda data: data[: len(data) // 2], id="torn"),
        pytest.param(lambda data: data[:-tail] + bytes(tail), id="zeroed tail"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data.replace(current, other, 1), id="other format"),
        pytest.param(lambda data: b"not a cache at all\n" + data, id="foreign"),
    ]
