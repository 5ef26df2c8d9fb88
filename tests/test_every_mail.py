"""Every mail of a short full game of every kind, in German and in English, through the real
daemon (Maildir, injected clock): the welcome, an accepted order (the example the welcome
quotes for its recipient, sent back as it stands), a rejected order, the results and, where
the game ends quickly enough, the final result. Hornberg also a PLAN and an auto-play at a
missed deadline.

Every mail sent is checked for

- width: no line over 78 characters outside tables. A line counts as part of a table when
  it has a run of two or more spaces between two non-space characters (aligned columns), or
  starts with "|" or "+-" (ruled tables); everything else is prose and must fit;
- language: no word of the other language (whole words, case-sensitive; the lists below,
  which may hold small patterns such as a game's colour codes);
- the example: the order example of the welcome mail, sent back by its recipient, is
  accepted.

The mails a player reads most (welcome, acknowledgement, rejection, a result, the final
result; Hornberg also a PLAN and an auto-play) are golden files in
``tests/golden/mails/<kind>-<lang>/``, reviewed line by line; ``GM_UPDATE_GOLDEN=1`` rewrites
them after a deliberate change (then read the diff).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.daemon_harness import DaemonHarness
from tests.scenarios import check_golden

WIDTH = 78
TABLE = re.compile(r"\S {2,}\S|^\s*(\||\+-)")  # as gm_daemon.games.kit.layout.is_table_line
FOREIGN = {
    "en": ["Runde", "Zug", "Befehle", "Spieler", "und", "nicht", "Abgabetermin", "Hallo",
           "Beispiel", "Jetzt", "gilt", "Sie",
           # Hornberg: German colour codes as tokens (ro4, ge3/2, "Kegs: ro,ge"), keywords
           "(ro|ge|sw|ws)[1-6]?", "DAUERPLAN", "Kanone", "Bier", "Herzog"],
    "de": ["Round", "orders", "deadline", "player", "Hello", "the", "and", "Example", "you",
           # Hornberg: English colour codes (re4, ye3/2, bk1, wh6) and words
           "(re|ye|bk|wh)[1-6]", "STANDING", "Salute", "cannon", "beer", "duke"],
}  # fmt: skip
# orders on file; a play carried out at once (Hornberg, the player on the move)
ACCEPTED = {
    "de": ("Befehle angenommen", "Spielzug angenommen"),
    "en": ("orders accepted", "play accepted"),
}
REJECTED = {"de": "NICHT angenommen", "en": "NOT accepted"}
PLAYERS = {
    "Anna": ("anna@players.test", "ANNA-1111"),
    "Bert": ("bert@players.test", "BERT-2222"),
    "Carla": ("carla@players.test", "CARLA-3333"),
}
BOARDS = Path(__file__).resolve().parents[1] / "config" / "boards"
GOLDEN = Path(__file__).parent / "golden" / "mails"
Keep = Callable[[str, EmailMessage], None]


def games_toml(kind: str, lang: str, settings: str, seats: int = 3) -> str:
    players = "".join(
        f'\n[[games.players]]\nname = "{name}"\nemail = "{email}"\ncode = "{code}"\n'
        for name, (email, code) in list(PLAYERS.items())[:seats]
    )
    return (
        f'[[games]]\nid = "g"\nkind = "{kind}"\nlanguage = "{lang}"\nseed = "{kind}-{lang}"\n'
        f"{settings}\n{players}"
    )


def problems(message: EmailMessage, lang: str) -> list[str]:
    """What is wrong with one mail: long prose lines and words of the other language. A
    command the GM is to copy ("  gm-daemon publish --config …") is one line however long
    its config's path is."""
    text = f"{message['Subject']}\n{DaemonHarness.body(message)}"
    found = [
        f"line of {len(line)} characters: {line!r}"
        for line in text.splitlines()
        if len(line) > WIDTH and not TABLE.search(line) and not line.startswith("  gm-daemon ")
    ]
    for word in FOREIGN[lang]:
        for line in text.splitlines():
            if re.search(rf"(?<![\w-]){word}(?![\w-])", line):
                found.append(f"{word!r} in {line!r}")
    for name in DaemonHarness.attachments(message):
        for word in FOREIGN[lang]:
            if re.search(rf"(?<![a-zA-Z]){word.lower()}(?![a-zA-Z])", name.lower()):
                found.append(f"{word!r} in the attachment name {name!r}")
    return found


def check_all(h: DaemonHarness, lang: str) -> None:
    assert h.sent
    report = {p: m["Subject"] for m in h.sent for p in problems(m, lang)}  # each once
    assert not report, "\n".join(f"{subject}: {p}" for p, subject in report.items())


def to(mails: list[EmailMessage], name: str) -> EmailMessage:
    return next(m for m in mails if PLAYERS[name][0] in m["To"])


def send(h: DaemonHarness, name: str, text: str) -> list[EmailMessage]:
    email, code = PLAYERS[name]
    h.send(email, f"Code: {code}\n{text}\n", subject="Re: [g]")
    h.advance(minutes=5)
    return h.run()


def is_accepted(message: EmailMessage, lang: str) -> bool:
    return any(words in message["Subject"] for words in ACCEPTED[lang])


def accepted(mails: list[EmailMessage], lang: str) -> EmailMessage:
    """The acknowledgement comes first (a phase may resolve at once after it)."""
    assert mails and is_accepted(mails[0], lang), [DaemonHarness.body(m) for m in mails]
    return mails[0]


def rejected(mails: list[EmailMessage], lang: str) -> EmailMessage:
    assert len(mails) == 1 and REJECTED[lang] in mails[0]["Subject"], [
        DaemonHarness.body(m) for m in mails
    ]
    return mails[0]


# --- the games ---------------------------------------------------------------------------
def play_highnoon(h: DaemonHarness, lang: str, keep: Keep) -> None:
    welcome = h.run()
    assert len(welcome) == 3
    keep("welcome", to(welcome, "Anna"))
    for name in PLAYERS:
        body = h.body(to(welcome, name))
        marker = "So sieht ein Zug aus:" if lang == "de" else "An order looks like this:"
        example = body.split(marker, 1)[1].split("\n\n")[1]
        keep(f"accepted-{name.lower()}", accepted(send(h, name, example), lang))
    keep("rejected", rejected(send(h, "Anna", "xyzzy 42 plugh"), lang))
    rounds(h, keep, days=3, seconds=1)


def play_primtraktor(h: DaemonHarness, lang: str, keep: Keep) -> None:
    welcome = h.run()
    assert len(welcome) == 3
    keep("welcome", to(welcome, "Anna"))
    marker = "Beispiel:" if lang == "de" else "Example:"
    for name in ("Anna", "Bert"):  # Carla sends nothing
        body = h.body(to(welcome, name))
        example = body.split(marker, 1)[1].strip().splitlines()[0].strip()
        round_word = "Runde" if lang == "de" else "Round"
        keep(
            f"accepted-{name.lower()}", accepted(send(h, name, f"{round_word}: 1\n{example}"), lang)
        )
    keep("rejected", rejected(send(h, "Bert", "xyzzy 42 plugh"), lang))
    rounds(h, keep, hours=72, seconds=1)


def play_hexenhalma(h: DaemonHarness, lang: str, keep: Keep) -> None:
    welcome = h.run()
    keep("welcome", to(welcome, "Anna"))
    marker = "Beispiel für dieses Brett:" if lang == "de" else "Example for this board:"
    for name in ("Anna", "Bert"):
        body = h.body(to(welcome, name))
        example = body.split(marker, 1)[1].strip().split("\n\n")[0]
        round_word = "Runde" if lang == "de" else "Round"
        mails = send(h, name, f"Spiel: g\n{round_word}: 1\n{example}")
        keep(f"accepted-{name.lower()}", accepted(mails, lang))
    keep("rejected", rejected(send(h, "Carla", "xyzzy 42 plugh"), lang))
    rounds(h, keep, hours=72, seconds=1)


def play_highlander(h: DaemonHarness, lang: str, keep: Keep) -> None:
    """A game to its end in two years (max_year = 1902 as a safety net): both players send
    their welcome's ballot example; Anna's first mail of the set-up is rejected, then each
    sets up as the ballot result's example says. In 1901 Anna takes Serbia with two supports
    and Munich; Bert holds as his example says and retreats as his next example says; Anna
    builds, Bert misses the adjustments (civil disorder). In 1902 Bert sends nothing at all
    (NMR), Anna takes Rumania and wins with 18 supply centres."""
    welcome = h.run()
    keep("welcome", to(welcome, "Anna"))
    latest = {n: h.body(to(welcome, n)) for n in ("Anna", "Bert")}
    marker = "Beispiel:" if lang == "de" else "Example:"
    support = "U" if lang == "de" else "S"
    munich = "Mün" if lang == "de" else "Mun"
    to_anna: list[EmailMessage] = []

    def note(mails: list[EmailMessage]) -> None:
        for m in mails:
            name = next(n for n in latest if PLAYERS[n][0] in m["To"])
            latest[name] = h.body(m)
            if name == "Anna" and m["Auto-Submitted"] == "auto-generated":
                to_anna.append(m)

    def example(name: str) -> str:
        return latest[name].split(marker, 1)[1].strip().split("\n\n")[0]

    def play(name: str, text: str) -> list[EmailMessage]:
        mails = send(h, name, f"Spiel: g\n{text}")
        accepted(mails, lang)
        note(mails)
        return mails

    keep("accepted-anna", accepted(play("Anna", example("Anna")), lang))
    keep("accepted-bert", accepted(play("Bert", example("Bert")), lang))  # the ballot resolves
    keep("rejected", rejected(send(h, "Anna", "xyzzy 42 plugh"), lang))
    play("Anna", example("Anna"))  # the set-up, as the ballot's result shows it
    play("Bert", example("Bert"))
    orders = ["A Bud - Ser", f"A Bul {support} A Bud - Ser", f"A Gre {support} A Bud - Ser",
              f"A Ber - {munich}"]  # fmt: skip
    keep("accepted-movement", play("Anna", "\n".join(orders))[0])
    play("Bert", example("Bert"))  # holds: 1901 movement resolves, Bert's A SER dislodged
    play("Bert", example("Bert"))  # the retreat
    play("Anna", example("Anna"))  # builds; Bert, who must remove a unit, sends nothing
    h.advance(hours=48, seconds=1)
    note(h.run())
    orders = ["A Bul - Rum", f"A Ser {support} A Bul - Rum", f"A Bud {support} A Bul - Rum"]
    play("Anna", "\n".join(orders))  # Bert sends nothing in 1902
    for _ in range(3):
        if h.finished("g"):
            break
        h.advance(hours=72, seconds=1)
        note(h.run())
    assert h.finished("g"), h.body(to_anna[-1])
    keep("result", to_anna[0])  # the ballot's result
    keep("result-movement", next(m for m in to_anna if "1901" in m["Subject"]))
    keep("final", to_anna[-1])


def rounds(h: DaemonHarness, keep: Keep, **step: float) -> None:
    """Deadlines pass until the game ends; Anna's first result and her final one are kept."""
    results: list[EmailMessage] = []
    for _ in range(60):
        if h.finished("g"):
            break
        h.advance(**step)
        mails = h.run()
        assert mails
        results += [m for m in mails if PLAYERS["Anna"][0] in m["To"]]
    else:
        raise AssertionError("the game does not end")
    keep("result", results[0])
    keep("final", results[-1])


def play_hornberg(h: DaemonHarness, lang: str, keep: Keep) -> None:
    """Each player on turn plays the example of his latest mail; on the way a rejected play,
    a missed deadline (auto-play) and a PLAN of the next player, built from his hand and the
    cannons on the table as a player would write it."""
    turn_word, marker, hand_word, to_move = (
        ("Zug", "Beispiel:", "Ihre Hand", "am Zug")
        if lang == "de"
        else ("Turn", "Example:", "Your hand", "to move")
    )
    welcome = h.run()
    keep("welcome", to(welcome, "Anna"))
    latest = {n: h.body(to(welcome, n)) for n in PLAYERS}
    to_anna: list[EmailMessage] = []
    state: dict = {}

    def note(mails: list[EmailMessage]) -> None:
        for m in mails:
            latest[next(n for n, (e, _) in PLAYERS.items() if e in m["To"])] = h.body(m)
            for attachment, data in h.attachments(m).items():
                if attachment.endswith(".json"):
                    state.update(json.loads(data)["state"])

    def mover() -> str:
        return re.findall(rf"{to_move}: (\w+)", latest["Anna"])[-1]

    def plan(name: str) -> str:
        hand = re.findall(rf"^{hand_word} \(\d+\): (.*)$", latest[name], re.M)[-1].split()
        cannons = [c["cannon"] for c in state["table"]["cells"]]
        beer = "Bier" if lang == "de" else "beer"
        of = "von" if lang == "de" else "of"
        lines = [f"{beer} {c[1]} {'auf' if lang == 'de' else 'on'} {t}"
                 for c in hand if c[0] == "B" for t in cannons]  # fmt: skip
        sides = ("O" if lang == "de" else "E", "W", "S", "N")
        lines += [f"{c} {d} {of} {t}" for c in hand if c[0] not in "BH"
                  for t in cannons for d in sides]  # fmt: skip
        return "PLAN:\n" + "\n".join(lines)

    events = {"missed": False, "plan": False, "rejected": False}
    while not h.finished("g"):
        turn, name = h.phase("g"), mover()
        assert turn < 300, "the game does not end"
        if turn == 2 and not events["missed"]:
            events["missed"] = True
            h.advance(hours=49)
            mails = h.run()
            keep("auto-play", to(mails, name))
            note(mails)
            continue
        if turn >= 3 and state and not events["plan"]:
            events["plan"] = True
            following = next(n for n in PLAYERS if n != name)
            mails = send(h, following, f"{turn_word}: {turn}\n{plan(following)}")
            keep("accepted-plan", accepted(mails, lang))
        if not events["rejected"]:
            events["rejected"] = True
            keep("rejected", rejected(send(h, name, f"{turn_word}: {turn}\nxyzzy 42 plugh"), lang))
        example = latest[name].split(marker, 1)[1].splitlines()[0].strip()
        mails = send(h, name, f"{turn_word}: {turn}\n{example}")
        if turn == 1:
            keep("accepted-play", accepted(mails, lang))
            keep("result", next(m for m in mails[1:] if PLAYERS["Anna"][0] in m["To"]))
        assert is_accepted(mails[0], lang), h.body(mails[0])
        note(mails)
        to_anna += [m for m in mails if PLAYERS["Anna"][0] in m["To"]]
    assert all(events.values()), events
    keep("final", to_anna[-1])


GAMES: dict[str, tuple[str, Callable[[DaemonHarness, str, Keep], None], int]] = {
    "highnoon": ('[games.deadlines]\nevery = "3d"\n[games.options]\nlife = 1\n', play_highnoon, 3),
    "primtraktor": (
        '[games.deadlines]\nround = "72h"\n[games.options]\nstart_min_dist = 12\nmax_rounds = 2\n',
        play_primtraktor,
        3,
    ),
    "hexenhalma": (
        '[games.deadlines]\nround = "72h"\n'
        '[games.options]\nrounds = 1\nboards = [{ file = "boards/turm.txt" }]\n',
        play_hexenhalma,
        3,
    ),
    "highlander": (
        "resolve_early = true\n[games.deadlines]\n"
        'ballot = "72h"\nsetup = "72h"\ngrace = "48h"\nmovement = "72h"\n'
        'retreats = "24h"\nadjustments = "48h"\n[games.options]\nmax_year = 1902\n',
        play_highlander,
        2,
    ),
    "hornberg": (
        '[games.deadlines]\nturn = "48h"\n[games.options]\nvariant = "kreuzer-quer"\n'
        'colours = ["ro", "ge", "bl", "gr"]\nkq_target = 10\n',
        play_hornberg,
        3,
    ),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("kind", list(GAMES))
def test_every_mail_of_a_short_game(tmp_path: Path, kind: str, lang: str) -> None:
    settings, play, seats = GAMES[kind]
    (tmp_path / "boards").mkdir()
    shutil.copy(BOARDS / "turm.txt", tmp_path / "boards" / "turm.txt")
    h = DaemonHarness(tmp_path, games_toml(kind, lang, settings, seats))
    kept: dict[str, EmailMessage] = {}

    def keep(label: str, message: EmailMessage) -> None:
        kept.setdefault(label, message)

    play(h, lang, keep)
    check_all(h, lang)
    ids: dict[str, str] = {}
    for label, message in kept.items():
        check_golden(GOLDEN / f"{kind}-{lang}" / f"{label}.txt", h.golden_text(message, ids))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_mail_of_a_tournament_match(tmp_path: Path, lang: str) -> None:
    """Highlander's two-board match: each player sends back the example of his latest mail,
    from the ballot to 1903 (both boards in one mail). Every position stays mirrored, so the
    last match year (1902) ends level and the match goes to sudden death, which the 1902
    results say with the totals."""
    settings = (
        "resolve_early = true\n[games.deadlines]\n"
        'ballot = "72h"\nsetup = "72h"\ngrace = "48h"\nmovement = "72h"\n'
        'retreats = "24h"\nadjustments = "48h"\n'
        "[games.options]\ntournament = true\nmatch_max_year = 1902\n"
    )
    h = DaemonHarness(tmp_path, games_toml("highlander", lang, settings, 2))
    welcome = h.run()
    latest = {name: h.body(to(welcome, name)) for name in ("Anna", "Bert")}
    marker = "Beispiel:" if lang == "de" else "Example:"
    while h.phase("g") < 6:  # ballot, set-up, 1901, 1902, 1903 movement
        for name in latest:
            example = latest[name].split(marker, 1)[1].strip().split("\n\n")[0]
            mails = send(h, name, f"Spiel: g\n{example}")
            accepted(mails, lang)
            for mail in mails:
                latest[next(n for n in latest if PLAYERS[n][0] in mail["To"])] = h.body(mail)
    check_all(h, lang)
    level = "Das letzte Matchjahr (1902) ist vorbei" if lang == "de" else "last match year (1902)"
    results = [m for m in h.sent if "1902" in m["Subject"] and level in h.body(m)]
    assert len(results) == 2 and not h.finished("g")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_drunter_drueber_welcome(tmp_path: Path, lang: str) -> None:
    """Hornberg's other game: its welcome shows its own order format, and both examples it
    gives (the play of the player on turn, the PLAN of one who is not) are accepted."""
    settings = '[games.deadlines]\nturn = "48h"\n[games.options]\nvariant = "drunter-drueber"\n'
    h = DaemonHarness(tmp_path, games_toml("hornberg", lang, settings))
    welcome = h.run()
    marker, plan_marker, turn_word = (
        ("Beispiel:", "Ein PLAN wäre etwa:", "Zug") if lang == "de"
        else ("Example:", "A PLAN could be:", "Turn")
    )  # fmt: skip
    on_turn = next(m for m in welcome if marker in h.body(m))
    waiting = next(m for m in welcome if plan_marker in h.body(m))
    for mail, mark in ((waiting, plan_marker), (on_turn, marker)):
        name = next(n for n, (email, _) in PLAYERS.items() if email in mail["To"])
        example = h.body(mail).split(mark, 1)[1].strip().splitlines()[0].strip()
        accepted(send(h, name, f"{turn_word}: 1\n{example}"), lang)
    check_all(h, lang)
    check_golden(GOLDEN / f"hornberg-dd-{lang}" / "welcome.txt", h.golden_text(on_turn, {}))
