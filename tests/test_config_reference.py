"""docs/config.md is ``gm-daemon config-reference``, and that names every key the config
models accept, each with a description. The keys are found a second way, from pydantic's
JSON schema of the models, so a key the reference's walk missed is caught."""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import annotated_types
import pytest
from pydantic import BaseModel, ConfigDict, Field

from gm_daemon.cli import main
from gm_daemon.config import Address, Config, Duration, Slug
from gm_daemon.config_reference import (
    MISSING,
    OPTIONS_PATH,
    REGENERATE,
    reference,
    tables,
    toml_value,
    type_text,
)
from gm_daemon.games import available_kinds, find_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "config.md"
KIND_SECTION = re.compile(r"^## Options of kind `([^`]+)`", re.MULTILINE)
KEY_HEADING = re.compile(r"^#{2,3} `([^`]+)`", re.MULTILINE)
EXAMPLE = re.compile(r"^- example: `(.+)`$", re.MULTILINE)


def test_docs_config_md_is_the_output_of_config_reference(capsys):
    assert main(["config-reference"]) == 0
    printed = capsys.readouterr().out
    assert printed == DOC.read_text(encoding="utf-8"), (
        f"docs/config.md is not the current config reference; regenerate it: {REGENERATE}"
    )


def schema_keys(schema: dict[str, Any]) -> set[str]:
    """Every key path a JSON schema admits: ``[]`` after a list of tables, ``<`` after a
    table that takes free keys."""
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while True:
            if "$ref" in node:
                node = defs[node["$ref"].rsplit("/", 1)[-1]]
                continue
            variants = [v for v in node.get("anyOf", []) if v.get("type") != "null"]
            if len(variants) == 1:
                node = variants[0]
                continue
            return node

    def walk(node: dict[str, Any], path: str) -> Iterator[str]:
        node = resolve(node)
        if node.get("type") == "array" and "properties" in resolve(node.get("items", {})):
            path, node = path + "[]", resolve(node["items"])
        if path:
            yield path
        for name, sub in node.get("properties", {}).items():
            yield from walk(sub, f"{path}.{name}" if path else name)
        if isinstance(node.get("additionalProperties"), dict):
            yield f"{path}.<"

    return set(walk(schema, ""))


def documented_keys() -> dict[str, set[str]]:
    """The key paths docs/config.md names, per part: "" for the daemon's keys, then one
    part per game kind."""
    text = DOC.read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in KIND_SECTION.finditer(text)]
    bounds = [(0, ""), *starts, (len(text), None)]
    parts: dict[str, set[str]] = {}
    for (start, kind), (end, _) in itertools.pairwise(bounds):
        found = KEY_HEADING.findall(text, start, end)
        parts[kind] = {re.sub(r"<[^>]*>$", "<", path) for path in found}
    return parts


def with_prefix(prefix: str, keys: set[str]) -> set[str]:
    return {f"{prefix}.{key}" for key in keys}


def test_every_key_the_config_accepts_is_in_the_reference():
    documented = documented_keys()
    expected = schema_keys(Config.model_json_schema())
    assert documented[""] == expected, (
        f"missing from docs/config.md: {sorted(expected - documented[''])}; "
        f"there but not in the models: {sorted(documented[''] - expected)}; run {REGENERATE}"
    )


@pytest.mark.parametrize("kind", available_kinds())
def test_every_option_of_every_kind_is_in_the_reference(kind):
    documented = documented_keys()
    assert kind in documented, f"docs/config.md has no section for kind {kind}; run {REGENERATE}"
    expected = with_prefix(OPTIONS_PATH, schema_keys(find_game(kind).Options.model_json_schema()))
    assert documented[kind] == expected, (
        f"{kind}: missing from docs/config.md: {sorted(expected - documented[kind])}; "
        f"there but not in the model: {sorted(documented[kind] - expected)}; run {REGENERATE}"
    )


def undescribed(schema: dict[str, Any]) -> list[str]:
    """Every property of every model in the schema without a description."""
    models = [schema, *schema.get("$defs", {}).values()]
    return [
        f"{model.get('title')}.{name}"
        for model in models
        for name, sub in model.get("properties", {}).items()
        if not str(sub.get("description", "")).strip()
    ]


@pytest.mark.parametrize("kind", ["", *available_kinds()])
def test_every_key_has_a_description(kind):
    model = find_game(kind).Options if kind else Config
    missing = undescribed(model.model_json_schema())
    assert not missing, (
        f"config keys without a description: {missing}. Give each field "
        "Field(description=...) in its model — what it does, in words a club GM understands, "
        f"with examples=[...] where an example helps — then run {REGENERATE}"
    )


def test_the_reference_has_no_key_without_a_description():
    assert MISSING not in reference(), (
        f"a key in the reference has no description (search it for {MISSING!r}); give its "
        f"field Field(description=...) and run {REGENERATE}"
    )


def test_every_example_is_valid_toml():
    for line in EXAMPLE.findall(DOC.read_text(encoding="utf-8")):
        tomllib.loads(line)  # raises, naming the line, when an example is not TOML


def test_the_keys_the_issue_found_undiscoverable_are_explained():
    text = DOC.read_text(encoding="utf-8")
    for path in (
        "daemon.safe_mode.max_nmr_share",
        "mail.max_mails_per_hour",
        "games[].deadlines.min_notice",
        "mail.imap.ca_file",
        "mail.smtp.ca_file",
        "games[].players[].id",
        "daemon.log_level",
    ):
        assert f"### `{path}`\n\n" in text, path


# --- the walk itself, on models the config does not have (yet) ---------------------------


class Inner(BaseModel):
    depth: int = Field(3, description="How deep.")


class Toy(BaseModel):
    model_config = ConfigDict(extra="allow")

    __pydantic_extra__: dict[str, int] = Field(init=False, title="thing", description="Free.")
    plain: str = Field(description="A plain key.", examples=["x"])
    undocumented: bool = False
    inner: Inner | None = Field(None, description="An optional table.")
    rows: list[Inner] = Field(default_factory=list, description="A list of tables.")


def test_the_walk_finds_tables_lists_of_tables_free_keys_and_missing_descriptions():
    found = {table.path: {key.path: key for key in table.keys} for table in tables(Toy, "toy")}
    assert list(found) == ["toy", "toy.inner", "toy.rows[]"]
    assert list(found["toy"]) == ["toy.plain", "toy.undocumented", "toy.<thing>"]
    assert found["toy"]["toy.undocumented"].description == MISSING
    assert found["toy"]["toy.<thing>"].type == "whole number"
    assert found["toy"]["toy.plain"].examples == ('plain = "x"',)
    assert found["toy.rows[]"]["toy.rows[].depth"].default == "`3`"


@pytest.mark.parametrize(
    ("annotation", "metadata", "expected"),
    [
        (int, [annotated_types.Ge(1)], "whole number, at least 1"),
        (
            float,
            [annotated_types.Ge(0.0), annotated_types.Le(1.0)],
            "number, at least 0.0, at most 1.0",
        ),
        (Literal["tls", "none"], [], 'one of `"tls"`, `"none"`'),
        (Literal["2.4"], [], '`"2.4"` (the only value)'),
        (Duration | None, [], type_text(Duration)),
        (Address, [], "email address"),
        (Slug, [], type_text(Slug)),
        (list[Literal["L", "P"]], [], 'list of values from `"L"`, `"P"`'),
        (tuple[int, ...], [], "list of whole numbers"),
        (list[list[str]], [], "list of lists of texts"),
        (dict[str, Any], [], "table"),
        (Path | None, [], "path"),
        (Annotated[str, Field(pattern=r"^\d+$")] | None, [], r"text, matching `^\d+$`"),
        (int | str, [], "whole number or text"),
    ],
)
def test_types_are_named_in_words(annotation, metadata, expected):
    assert type_text(annotation, metadata) == expected


def test_durations_and_slugs_say_how_to_write_them():
    assert '"24h"' in type_text(Duration)
    assert "40" in type_text(Slug)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, "true"),
        (Path("var/gm.sqlite"), '"var/gm.sqlite"'),
        ("Müller", '"Müller"'),
        ([19, 13, 7], "[19, 13, 7]"),
        ({"file": "boards/turm.txt"}, '{ file = "boards/turm.txt" }'),
        ({}, "{}"),
    ],
)
def test_values_are_written_as_toml(value, expected):
    assert toml_value(value) == expected
    tomllib.loads(f"key = {toml_value(value)}")
