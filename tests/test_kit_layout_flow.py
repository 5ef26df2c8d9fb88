"""kit.layout.flow: words kept whole, a hanging indent under the prefix, 78 columns."""

from gm_daemon.games.kit.layout import flow


def test_flow_breaks_between_words_only_and_indents_under_the_prefix() -> None:
    words = [f"▸{n} D{n}[K]" for n in range(1, 13)]
    lines = flow(words, prefix="Hexe 1: ", width=40)
    assert lines[0].startswith("Hexe 1: ▸1 D1[K]")
    assert all(len(line) <= 40 for line in lines)
    assert all(line.startswith(" " * 8) for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == "Hexe 1: " + " ".join(words)


def test_a_word_longer_than_the_width_stands_alone() -> None:
    assert flow(["x" * 10, "y"], width=5) == ["x" * 10, "y"]
