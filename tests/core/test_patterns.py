"""``patterns.on_first_use``: a module-level pattern compiled when first used is the pattern
``re.compile`` makes, and importing its module compiles none of them."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys

import pytest

from gm_daemon.patterns import _OnFirstUse, on_first_use

MODULES = [
    "gm_daemon.absences",
    "gm_daemon.games.kit.headers",
    "gm_daemon.games.kit.layout",
    "gm_daemon.greetings",
    "gm_daemon.guards",
    "gm_daemon.mail.armour",
    "gm_daemon.mail.compose",
    "gm_daemon.mail.maildir",
    "gm_daemon.mail.message",
]
TEXTS = [
    "",
    "Hallo Hans,",
    "Am 3. Mai 2026 schrieb Anna:",
    "On Mon, Bob wrote:",
    "=?utf-8?q?Gr=C3=BC=C3=9Fe?= =?utf-8?b?w6Q=?=",
    "-----BEGIN PGP SIGNATURE-----",
    "Hash: SHA256",
    "Runde 3 / 12 (Anna) 12.05.2026",
    "Code: ABC-1\nSpiel: hn1",
    "gm-0123456789abcdef0123456789abcdef",
    "<a.b@gm.test> anna@example.org [hn1] text/plain",
    "3 : 4  Dr. Müller | +- table",
    "01.02.2026",
    "Grüße, Anna-Lena O’Neill",
    "QUJD RA==\n  x y",
]


def _deferred() -> list[tuple[str, _OnFirstUse]]:
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        found += [
            (f"{name}.{attr}", value)
            for attr, value in vars(module).items()
            if isinstance(value, _OnFirstUse)
        ]
    return found


def test_every_module_named_here_has_some() -> None:
    names = {name.rsplit(".", 1)[0] for name, _ in _deferred()}
    assert names == set(MODULES)


@pytest.mark.parametrize(("name", "deferred"), _deferred(), ids=lambda x: str(x)[:40])
def test_it_does_what_the_compiled_pattern_does(name: str, deferred: _OnFirstUse) -> None:
    pattern, flags = deferred._source
    compiled = re.compile(pattern, flags)
    assert (deferred.pattern, deferred.flags) == (compiled.pattern, compiled.flags), name
    assert deferred.groupindex == compiled.groupindex
    for text in TEXTS:
        for line in [text, *text.splitlines()]:
            found, expected = deferred.search(line), compiled.search(line)
            assert (found and found.span()) == (expected and expected.span()), (name, line)
            assert deferred.findall(line) == compiled.findall(line)
            assert deferred.sub("#", line) == compiled.sub("#", line)
            assert bool(deferred.match(line)) == bool(compiled.match(line))
            assert bool(deferred.fullmatch(line)) == bool(compiled.fullmatch(line))


def test_a_mistake_is_raised_at_the_first_use() -> None:
    broken = on_first_use(r"(unclosed")
    with pytest.raises(re.error):
        broken.search("x")


def test_its_flags_are_kept() -> None:
    both = on_first_use(r"^hallo$", re.IGNORECASE | re.MULTILINE)
    assert both.findall("x\nHALLO\nhallo") == ["HALLO", "hallo"]
    assert "on_first_use('^hallo$'" in repr(both)


def test_importing_compiles_none() -> None:
    probe = (
        "import importlib, json, sys\n"
        "from gm_daemon.patterns import _OnFirstUse\n"
        "compiled = []\n"
        "for name in sys.argv[1:]:\n"
        "    for attr, value in vars(importlib.import_module(name)).items():\n"
        "        if isinstance(value, _OnFirstUse) and '_compiled' in vars(value):\n"
        "            compiled.append(name + '.' + attr)\n"
        "print(json.dumps(compiled))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *MODULES], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
