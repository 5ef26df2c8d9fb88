from pathlib import Path

import pytest

from gm_daemon.config import ConfigError, load_config

BASE = """
[mail]
address = "gm@gm.test"
"""

GAME = """
[[games]]
id = "g1"
kind = "guess"
[games.deadlines]
every = "2d"
[[games.players]]
name = "Anna Alt"
email = "anna@players.test"
code = "same-1"
[[games.players]]
name = "Bert Bär"
email = "bert@players.test"
"""


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "gm.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return caught.value.problems


def test_a_good_config_loads_with_defaults(tmp_path):
    path = tmp_path / "gm.toml"
    path.write_text(BASE + GAME, encoding="utf-8")
    config = load_config(path)
    assert config.mail.transport == "maildir"
    assert config.daemon.timezone == "Europe/Berlin"
    assert config.games[0].players[1].seat_id() == "bert-baer"
    assert config.games[0].language == "de"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ("anna@players.test", "anna-at-players"),
            "games[0].players[0].email: 'anna-at-players' is not an email address",
        ),
        (('kind = "guess"', 'kind = "chess"'), "games[0].kind: unknown game kind 'chess'"),
        (('every = "2d"', 'every = "two days"'), "games[0].deadlines.every:"),
        (('every = "2d"', 'cron = "0 18 * * fri"\nevery = "2d"'), "games[0].deadlines:"),
        (('id = "g1"', 'id = "g 1"'), "games[0].id:"),
        (
            ("bert@players.test", "anna@players.test"),
            "games[0].players: players[1] and players[0] share the email 'anna@players.test'",
        ),
        (
            ('email = "bert@players.test"', 'email = "bert@players.test"\ncode = "SAME-1"'),
            "players[1] and players[0] share the code 'same-1'",
        ),
        (
            ("[games.deadlines]", '[games.options]\nrounds = "many"\n[games.deadlines]'),
            "games[0].options: options.rounds:",
        ),
    ],
)
def test_each_problem_is_named_with_its_key_path(tmp_path, change, expected):
    old, new = change
    found = problems(tmp_path, BASE + GAME.replace(old, new, 1))
    assert any(expected in p for p in found), found


def test_imap_transport_needs_servers(tmp_path):
    found = problems(tmp_path, BASE.replace('"\n', '"\ntransport = "imap"\n', 1))
    assert any("[mail.imap]" in p and "[mail.smtp]" in p for p in found), found


def test_every_problem_is_reported_at_once(tmp_path):
    text = BASE.replace("gm@gm.test", "nobody") + GAME.replace('"2d"', '"2 weeks-ish"')
    found = problems(tmp_path, text)
    assert len(found) == 2, found


def test_not_toml_and_missing_file(tmp_path):
    assert "not valid TOML" in problems(tmp_path, "[mail\naddress=")[0]
    with pytest.raises(ConfigError, match="file not found"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        (None, "games[0].options.board: cannot read {file}: No such file or directory"),
        ("Brett Öde\n".encode("latin-1"), "games[0].options.board: {file}: not UTF-8 text: "
         "byte 0xd6 at line 1, column 7 (save the file as UTF-8)"),
    ],
    ids=["missing", "latin-1"],
)  # fmt: skip
def test_an_options_file_that_cannot_be_had_is_named_with_its_key_path(tmp_path, board, expected):
    file = tmp_path / "board.txt"
    if board is not None:
        file.write_bytes(board)
    found = problems(tmp_path, BASE + GAME + '[games.options]\nboard = { file = "board.txt" }\n')
    assert expected.format(file=file) in found, found


def test_password_from_file_and_env(tmp_path, monkeypatch):
    secret = tmp_path / "pw"
    secret.write_text("s3cret\n")
    monkeypatch.setenv("GM_SMTP_PW", "other")
    text = (
        BASE.replace('"\n', '"\ntransport = "imap"\n', 1)
        + f"""
[mail.imap]
host = "imap.test"
username = "gm"
password_file = "{secret}"
[mail.smtp]
host = "smtp.test"
password_env = "GM_SMTP_PW"
"""
    )
    path = tmp_path / "gm.toml"
    path.write_text(text)
    config = load_config(path)
    assert config.mail.imap.password() == "s3cret"
    assert config.mail.smtp.password() == "other"


def test_every_problem_of_a_config_is_named_at_once(tmp_path):
    """An unknown kind, a bad deadline and a shared address: one check names all three."""
    broken = (
        GAME.replace('kind = "guess"', 'kind = "chess"', 1)
        .replace('every = "2d"', 'every = "two days"', 1)
        .replace("bert@players.test", "anna@players.test", 1)
    )
    found = problems(tmp_path, BASE + broken)
    assert any(p.startswith("games[0].kind: unknown game kind 'chess'") for p in found), found
    assert any(p.startswith("games[0].deadlines.every:") for p in found), found
    assert any(p.startswith("games[0].players: players[1] and players[0]") for p in found), found


def test_a_preview_needs_the_gms_address_where_it_goes(tmp_path):
    """``preview = true`` sends the results to ``mail.gm_address`` first: without one they
    would go nowhere and the game wait for ever."""
    game = GAME.replace('kind = "guess"', 'kind = "guess"\npreview = true', 1)
    (found,) = problems(tmp_path, BASE + game)
    assert "preview = true (g1)" in found and 'gm_address = "you@example.org"' in found
    path = tmp_path / "gm.toml"
    path.write_text(BASE + 'gm_address = "boss@gm.test"\n' + game, encoding="utf-8")
    assert load_config(path).games[0].preview


def test_the_new_keys_say_what_they_do():
    from gm_daemon.config import GameConfig

    assert "gm-daemon publish" in (GameConfig.model_fields["preview"].description or "")


IMAP = """
[mail.imap]
host = "imap.test"
username = "gm"
password_env = "GM_IMAP_PW"
[mail.smtp]
host = "smtp.test"
"""


@pytest.mark.parametrize(
    ("folder", "expected"),
    [
        ('""', "an empty folder name"),
        ('"  "', "an empty folder name"),
        ('"GM/"', 'every level between "/" needs a name'),
        ('"/erledigt"', 'every level between "/" needs a name'),
        ('"GM//erledigt"', 'every level between "/" needs a name'),
        ('"GM/ erledigt"', "without spaces at its ends"),
        ('"GM/*"', "cannot hold *"),
        ('"GM%"', "cannot hold %"),
        ('"GM\\nerledigt"', "line break or control character"),
        ('"inbox"', "is the folder mail is read from"),
    ],
)
def test_a_processed_folder_must_be_a_folder_the_daemon_can_make(tmp_path, folder, expected):
    text = BASE + IMAP.replace('password_env = "GM_IMAP_PW"', f"processed_folder = {folder}")
    found = problems(tmp_path, text)
    assert any(p.startswith("mail.imap") and expected in p for p in found), found


def test_a_processed_folder_is_optional_and_may_hold_umlauts(tmp_path):
    path = tmp_path / "gm.toml"
    path.write_text(BASE + IMAP, encoding="utf-8")
    assert load_config(path).mail.imap.processed_folder is None
    umlauts = IMAP.replace("[mail.smtp]", 'processed_folder = "GM/Erledigte Züge"\n[mail.smtp]')
    path.write_text(BASE + umlauts, encoding="utf-8")
    assert load_config(path).mail.imap.processed_folder == "GM/Erledigte Züge"
