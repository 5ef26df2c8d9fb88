"""``gm-daemon config-reference``: every config key as Markdown, walked from the models.

The reference is generated, never written by hand, so that a key added to a model cannot be
missing from ``docs/config.md`` (a test compares the two) and a key's text lives next to its
validation. The walk is generic: any pydantic model, nested table, list of tables, union,
``Literal`` or ``Annotated`` constraint a future key uses is rendered without changes here.
"""

from __future__ import annotations

import json
import textwrap
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from pathlib import PurePath
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from gm_daemon.config import Config
from gm_daemon.games import available_kinds, find_game
from gm_daemon.games.protocol import Shape

OPTIONS_PATH = "games[].options"  # where each kind's Options model sits in the config
MISSING = "**No description yet.**"  # the tests refuse a reference holding this
WIDTH = 100
REGENERATE = ".venv/bin/gm-daemon config-reference > docs/config.md"

_PLAIN = {
    str: "text",
    int: "whole number",
    float: "number",
    bool: "`true` or `false`",
    datetime: "local date and time, e.g. `2026-01-02T18:00`",
    Any: "any value",
}


@dataclass(frozen=True)
class Key:
    """One key of a table, rendered."""

    path: str  # games[].players[].id
    aliases: tuple[str, ...]
    type: str
    default: str
    description: str
    examples: tuple[str, ...]  # TOML lines: 'id = "vera"'


@dataclass(frozen=True)
class Table:
    """One TOML table (``[mail.imap]``, ``[[games]]``) with its own keys."""

    path: str  # games[].players[]
    header: str  # [[games.players]]
    description: str
    keys: tuple[Key, ...]


def reference() -> str:
    """The whole reference: the config's tables, then each game kind's options."""
    lines = _intro()
    for table in tables(Config):
        lines += _table_lines(table, heading=f"## `{table.path}` — `{table.header}`")
    for kind in available_kinds():
        lines += _kind_lines(kind)
    return "\n".join(lines).rstrip("\n") + "\n"


def tables(model: type[BaseModel], path: str = "", description: str = "") -> list[Table]:
    """The model's table (when it has keys of its own) followed by its nested tables,
    depth first, in the order the fields are declared."""
    keys: list[Key] = []
    nested: list[Table] = []
    for name, field in model.model_fields.items():
        written = _written_name(name, field)
        inner, repeated = _table_model(field.annotation)
        if inner is None:
            keys.append(_key(_join(path, written), written, field, _aliases(name, field)))
            continue
        sub = _join(path, written) + ("[]" if repeated else "")
        nested += tables(inner, sub, field.description or MISSING)
    extra = _extra_field(model)
    if extra is not None:
        placeholder = f"<{extra.title or 'key'}>"
        key = _key(_join(path, placeholder), placeholder, extra, ())
        keys.append(replace(key, default="none; any number of such keys"))
    own = [Table(path, _header(path), description, tuple(keys))] if keys or path else []
    return own + nested


def _intro() -> list[str]:
    return [
        "# Config reference",
        "",
        _wrap(
            "Every key of the GM's config file (TOML), with its type, default and an example. "
            "This page is generated from the config models (`gm_daemon/config.py` and each "
            "game kind's `Options`) by `gm-daemon config-reference`; do not edit it by hand. "
            "After changing a model, run"
        ),
        "",
        "```sh",
        REGENERATE,
        "```",
        "",
        _wrap(
            "A key path says where a key goes: `mail.imap.host` is the key `host` in the table "
            "`[mail.imap]`; `games[]` stands for each `[[games]]` table, `games[].players[]` "
            "for each `[[games.players]]` table of a game. A key that is not required may be "
            "left out. `gm-daemon check --config FILE` checks a file against everything below "
            "and names each problem with its key path."
        ),
        "",
        _wrap(
            "Relative paths are taken from the directory the daemon runs in (under systemd: "
            "`/var/lib/gm-daemon`), except `{ file = … }` in `[games.options]`, which is "
            "relative to the config file. Passwords never stand in this file: see "
            "`password_file` and `password_env`. Each game kind's own options follow the "
            "daemon's keys, after `games[].players[]`."
        ),
        "",
    ]


def _table_lines(table: Table, heading: str | None, kind: str = "") -> list[str]:
    lines = [heading, ""] if heading else []
    if table.description:
        lines += [_wrap(table.description), ""]
    for key in table.keys:
        suffix = f" ({kind})" if kind else ""
        lines += [f"### `{key.path}`{suffix}", "", _wrap(key.description), ""]
        if key.aliases:
            lines.append("- also written: " + ", ".join(f"`{a}`" for a in key.aliases))
        lines += [f"- type: {key.type}", f"- default: {key.default}"]
        lines += [f"- example: `{example}`" for example in key.examples]
        lines.append("")
    return lines


def _kind_lines(kind: str) -> list[str]:
    game = find_game(kind)
    name = game.title.get("en") or kind
    phase_types = ", ".join(f"`{t}`" for t in getattr(game, "phase_types", ()))
    lines = [
        f"## Options of kind `{kind}` — `[games.options]`",
        "",
        _wrap(
            f"{name}: rules, order format and decisions in "
            f"[docs/games/{kind}.md](games/{kind}.md). Its phase types, the keys for lengths "
            f"in `[games.deadlines]`: {phase_types or 'none'}."
        ),
        "",
    ]
    for table in tables(game.Options, OPTIONS_PATH):
        nested = table.path != OPTIONS_PATH  # the options' own sub-tables, if a kind has any
        heading = f"## `{table.path}` — `{table.header}` ({kind})" if nested else None
        lines += _table_lines(table, heading, kind)
    return lines


def _key(path: str, name: str, field: FieldInfo, aliases: tuple[str, ...]) -> Key:
    return Key(
        path=path,
        aliases=aliases,
        type=type_text(field.annotation, field.metadata),
        default=_default_text(field),
        description=field.description or MISSING,
        examples=tuple(_example_line(name, example) for example in field.examples or ()),
    )


def _example_line(name: str, example: Any) -> str:
    if name.startswith("<") and isinstance(example, Mapping):  # a placeholder key
        return ", ".join(f"{k} = {toml_value(v)}" for k, v in example.items())
    return f"{name} = {toml_value(example)}"


def _written_name(name: str, field: FieldInfo) -> str:
    """The name a GM writes: the first validation alias where the field has one."""
    alias = field.validation_alias
    if isinstance(alias, str):
        return alias
    choices = getattr(alias, "choices", None)
    if choices and isinstance(choices[0], str):
        return choices[0]
    return field.alias or name


def _aliases(name: str, field: FieldInfo) -> tuple[str, ...]:
    written = _written_name(name, field)
    choices = getattr(field.validation_alias, "choices", None) or ()
    return tuple(c for c in choices if isinstance(c, str) and c != written)


def _extra_field(model: type[BaseModel]) -> FieldInfo | None:
    """The description of a model's free keys (``extra="allow"``), declared as a field
    on ``__pydantic_extra__``; its annotation's value type is the keys' type."""
    if model.model_config.get("extra") != "allow":
        return None
    for klass in model.__mro__:
        declared = vars(klass).get("__pydantic_extra__")
        if isinstance(declared, FieldInfo):
            hint = typing.get_type_hints(klass, include_extras=True).get("__pydantic_extra__")
            args = get_args(hint)
            value = args[1] if len(args) == 2 else Any
            return FieldInfo.merge_field_infos(declared, annotation=value)
    return FieldInfo(annotation=Any, description=MISSING)


def _table_model(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model a field holds as a table (``X``, ``X | None``) or as a list of tables."""
    base = _strip(annotation)
    if _is_model(base):
        return base, False
    if get_origin(base) in (Union, types.UnionType):
        models = [a for a in get_args(base) if _is_model(_strip(a))]
        if len(models) == 1 and len(get_args(base)) == 2 and type(None) in get_args(base):
            return _strip(models[0]), False
    if get_origin(base) is list:
        (item,) = get_args(base) or (Any,)
        if _is_model(_strip(item)):
            return _strip(item), True
    return None, False


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _strip(tp: Any) -> Any:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def type_text(tp: Any, metadata: Sequence[Any] = ()) -> str:
    """A type in words a GM reads: ``whole number, at least 1``, ``one of "tls", …``."""
    extra = list(metadata)
    while get_origin(tp) is Annotated:
        tp, *more = get_args(tp)
        extra = [*more, *extra]
    extra = list(_flatten(extra))
    shape = next((m.name for m in extra if isinstance(m, Shape)), None)
    if shape is not None:
        return shape
    return _base_text(tp) + _constraints(extra)


def _flatten(metadata: Sequence[Any]) -> Iterator[Any]:
    for item in metadata:
        if isinstance(item, FieldInfo):
            yield from _flatten(item.metadata)
        else:
            yield item


def _base_text(tp: Any) -> str:
    origin, args = get_origin(tp), get_args(tp)
    if tp in _PLAIN:
        return _PLAIN[tp]
    if isinstance(tp, type) and issubclass(tp, PurePath):
        return "path"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return "one of " + ", ".join(f"`{toml_value(m.value)}`" for m in tp)
    if _is_model(tp):
        return "table"
    if origin is Literal:
        if len(args) == 1:
            return f"`{toml_value(args[0])}` (the only value)"
        return "one of " + ", ".join(f"`{toml_value(a)}`" for a in args)
    if origin in (Union, types.UnionType):
        shown = [type_text(a) for a in args if a is not type(None)]
        return " or ".join(shown)
    if origin in (list, tuple, set, frozenset):
        items = [a for a in args if a is not Ellipsis] or [Any]
        if origin is tuple and len(items) > 1:
            return "list of " + ", ".join(type_text(a) for a in items)
        return f"list of {_plural(type_text(items[0]))}"
    if origin is dict:
        return "table" if len(args) < 2 or args[1] is Any else f"table of {type_text(args[1])}"
    return getattr(tp, "__name__", str(tp))


def _plural(text: str) -> str:
    if text.startswith("one of "):
        return "values from " + text.removeprefix("one of ")
    if text.endswith(" (the only value)"):
        return "values from " + text.removesuffix(" (the only value)")
    if text.startswith("list of "):
        return "lists of " + text.removeprefix("list of ")
    return {"text": "texts", "whole number": "whole numbers", "number": "numbers"}.get(text, text)


def _constraints(metadata: Sequence[Any]) -> str:
    low = high = None
    words = []
    for item in metadata:
        if isinstance(item, annotated_types.Ge | annotated_types.Gt):
            low = f"{'at least' if isinstance(item, annotated_types.Ge) else 'above'} {_num(item)}"
        elif isinstance(item, annotated_types.Le | annotated_types.Lt):
            high = f"{'at most' if isinstance(item, annotated_types.Le) else 'below'} {_num(item)}"
        elif isinstance(item, annotated_types.MinLen) and item.min_length == 1:
            words.append("not empty")
        elif isinstance(item, annotated_types.MinLen):
            words.append(f"at least {item.min_length} long")
        elif isinstance(item, annotated_types.MaxLen):
            words.append(f"at most {item.max_length} long")
        elif getattr(item, "pattern", None):
            words.append(f"matching `{item.pattern}`")
    words = [w for w in (low, high) if w] + words
    return ", " + ", ".join(words) if words else ""


def _num(item: Any) -> str:
    for name in ("ge", "gt", "le", "lt"):
        if hasattr(item, name):
            return toml_value(getattr(item, name))
    return str(item)


def _default_text(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if value is None:
        return "unset"
    if isinstance(value, BaseModel):
        return "the table's defaults"
    return f"`{toml_value(value)}`"


def toml_value(value: Any) -> str:
    """A value as the GM writes it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str | PurePath):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return toml_value(value.value)
    if isinstance(value, BaseModel):
        return toml_value(value.model_dump(mode="json"))
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items())
        return f"{{ {pairs} }}" if pairs else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def _wrap(text: str) -> str:
    """Lines of the width of the other docs; a break inside a code span is a space to
    Markdown, so any space may break."""
    return textwrap.fill(text, WIDTH, break_long_words=False, break_on_hyphens=False)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _header(path: str) -> str:
    """``games[].players[]`` -> ``[[games.players]]``; ``daemon.safe_mode`` ->
    ``[daemon.safe_mode]``."""
    dotted = path.replace("[]", "")
    return f"[[{dotted}]]" if path.endswith("[]") else f"[{dotted}]"
