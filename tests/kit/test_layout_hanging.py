"""kit.layout.hanging: a labelled list wrapped under its first item."""

from gm_daemon.games.kit.layout import hanging


def test_short_list_is_one_line() -> None:
    assert hanging("Anna (2): ", ["BEL", "BER"]) == ["  Anna (2): BEL, BER"]


def test_long_list_wraps_under_the_first_item() -> None:
    items = [f"C{i:02d}" for i in range(30)]
    lines = hanging("Bert (30): ", items, width=40)
    assert all(len(line) <= 40 for line in lines)
    assert lines[0].startswith("  Bert (30): C00, ")
    assert all(line.startswith(" " * len("  Bert (30): ")) for line in lines[1:])
    assert (
        ", ".join(items)
        == " ".join(line.strip() for line in lines).replace("  ", " ")[len("Bert (30): ") :]
    )


def test_empty_list_keeps_the_label() -> None:
    assert hanging("neutral (0): ", []) == ["  neutral (0):"]


def test_an_item_is_never_split() -> None:
    units = [f"A X{i:02d}" for i in range(20)]
    lines = hanging("Anna: ", units, width=30)
    assert all(line.rstrip().endswith(",") or line.rstrip().endswith("X19") for line in lines)
