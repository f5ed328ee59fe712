"""Generated hostile inputs for manifests and snapshots: truncated, wrong types, deep, bombs, bad bytes.

`hostile_inputs(seed)` yields (file name, bytes, family) deterministically, at least 1,000 of them,
built from real inputs (the demo cluster snapshot, the check fixtures) and from scratch. The families
are what an attacker or an accident produces: files cut short, values of the wrong type, nesting
thousands deep, YAML alias bombs and self-references, gzip bombs and damaged gzip, bytes that are
not UTF-8, 10,000 documents, giant strings, random bit flips, and tags a safe loader must refuse.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "src" / "kubegap" / "checker" / "demo" / "cluster.json"
FIXTURES = ROOT / "tests" / "checks"

Case = tuple[str, bytes, str]
_WRONG_VALUES: tuple[Any, ...] = (
    None,
    0,
    -1,
    2**70,
    1.5e308,
    True,
    "",
    "x" * 300,
    [],
    [None],
    {},
    {"": None},
    [[[]]],
    "\u0000",
    "🙂" * 40,
)


def _valid_yaml_files() -> list[bytes]:
    return [path.read_bytes() for path in sorted(FIXTURES.glob("*/*.yaml"))]


def _pod(name: str = "p") -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": "x"}},
        "spec": {"containers": [{"name": "c", "image": "i", "env": [{"name": "A", "value": "b"}]}]},
    }


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:5]):
            yield from _paths(item, (*prefix, index))


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return document


def _wrong_types(generator: random.Random, count: int) -> Iterator[Case]:
    demo = json.loads(DEMO.read_bytes())
    small = {**demo, "items": demo["items"][:12]}
    paths = list(_paths(small))
    for index in range(count):
        document = copy.deepcopy(small)
        for _ in range(generator.randint(1, 4)):
            path = generator.choice(paths)
            try:
                document = _set(document, path, generator.choice(_WRONG_VALUES))
            except (KeyError, IndexError, TypeError):
                continue
        yield f"wrong-types-{index}.json", json.dumps(document).encode(), "wrong types"


def _truncated(generator: random.Random, count: int) -> Iterator[Case]:
    sources = [(DEMO.read_bytes(), "json"), *((raw, "yaml") for raw in _valid_yaml_files()[:60])]
    for index in range(count):
        raw, suffix = generator.choice(sources)
        cut = generator.randint(0, max(0, len(raw) - 1))
        data = raw[:cut]
        if generator.random() < 0.25:
            data = gzip.compress(raw)[: generator.randint(1, 200)]
            suffix += ".gz"
        yield f"truncated-{index}.{suffix}", data, "truncated"


def _bit_flips(generator: random.Random, count: int) -> Iterator[Case]:
    sources = [(DEMO.read_bytes()[:8000], "json"), *((raw, "yaml") for raw in _valid_yaml_files()[:40])]
    for index in range(count):
        raw, suffix = generator.choice(sources)
        data = bytearray(raw)
        for _ in range(generator.randint(1, 12)):
            if data:
                data[generator.randrange(len(data))] = generator.randrange(256)
        yield f"flipped-{index}.{suffix}", bytes(data), "random bytes changed"


def _deep(count: int) -> Iterator[Case]:
    depths = [50, 99, 100, 101, 500, 999, 1000, 1025, 5000, 100_000]
    for index in range(count):
        depth = depths[index % len(depths)]
        style = index % 5
        if style == 0:
            data = ("[" * depth + "]" * depth).encode()
            yield f"deep-{index}.json", data, "deep nesting"
        elif style == 1:
            pod = json.dumps(_pod()).encode()
            data = b'{"apiVersion":"v1","kind":"List","items":[' + pod[:-1] + b',"x":' + b'{"a":' * depth
            data += b"1" + b"}" * depth + b"}]}"
            yield f"deep-item-{index}.json", data, "deep nesting"
        elif style == 2:
            lines = "".join(f"{'  ' * level}a{level}:\n" for level in range(min(depth, 3000)))
            yield (
                f"deep-block-{index}.yaml",
                f"kind: Pod\napiVersion: v1\nspec:\n{lines}".encode(),
                "deep nesting",
            )
        elif style == 3:
            flow = "{a: " * depth + "1" + "}" * depth
            yield (
                f"deep-flow-{index}.yaml",
                f"apiVersion: v1\nkind: Pod\nmetadata: {{name: x}}\nspec: {flow}\n".encode(),
                "deep nesting",
            )
        else:
            yield f"deep-list-{index}.yaml", ("- " * min(depth, 20_000) + "x\n").encode(), "deep nesting"


def _alias_bombs(count: int) -> Iterator[Case]:
    for index in range(count):
        levels, fanout = 3 + index % 8, 2 + index % 9
        lines = [f"l0: &l0 [{', '.join(['lol'] * fanout)}]"]
        for level in range(1, levels + 1):
            lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * fanout)}]")
        body = "\n  ".join(lines)
        if index % 4 == 0:
            text = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  {body}\n"
        elif index % 4 == 1:
            text = (
                f"apiVersion: v1\nkind: Pod\nmetadata: {{name: bomb, labels: &m {{a: b}}}}\nspec:\n  {body}\n"
            )
        elif index % 4 == 2:
            text = "a: &a [*a]\n" if index % 8 == 2 else "a: &a {b: *a}\n"
        else:
            merges = "\n".join(
                f"m{n}: &m{n}\n  <<: [{', '.join(f'*m{n - 1}' for _ in range(fanout))}]"
                for n in range(1, levels)
            )
            text = f"m0: &m0 {{a: 1, b: 2}}\n{merges}\n"
        yield f"alias-{index}.yaml", text.encode(), "alias bomb"


def _gzip_bomb(style: int) -> bytes:
    block = b" " * (8 << 20)
    spaces = gzip.compress(block, 9)
    if style == 0:  # 1 GiB of spaces in a few MB: many members of 8 MiB each
        return spaces * 128
    if style == 1:  # a List whose items expand 1,000-fold
        head = gzip.compress(b'{"apiVersion":"v1","kind":"List","items":[', 9)
        return head + gzip.compress(b'{"a":1},' * (1 << 22), 9) * 16
    if style == 2:  # gzip inside gzip
        return gzip.compress(gzip.compress(block * 4, 9), 9)
    if style == 3:
        return spaces[: len(spaces) // 2]
    if style == 4:
        return spaces + b"trailing garbage"
    return gzip.compress(b"- a\n" * (1 << 24), 9)


def _gzip_bombs(count: int) -> Iterator[Case]:
    made: dict[int, bytes] = {}  # each style is compressed once: the same bomb under several names
    for index in range(count):
        style = index % 6
        data = made.setdefault(style, _gzip_bomb(style))
        suffix = "yaml.gz" if style == 5 else "json.gz"
        yield f"gzip-{index}.{suffix}", data, "gzip bomb"


def _bad_bytes(generator: random.Random, count: int) -> Iterator[Case]:
    text = json.dumps(_pod("ü-name"))
    for index in range(count):
        style = index % 8
        if style == 0:
            data = generator.randbytes(generator.randint(1, 4000))
        elif style == 1:
            data = text.encode("latin-1", "replace")
        elif style == 2:
            data = text.encode("utf-16-le")
        elif style == 3:
            data = b"\xff\xfe" + generator.randbytes(101)
        elif style == 4:
            data = b"\xef\xbb\xbf" + b"kind: Pod\nname: \xc0\xaf\xed\xa0\x80\n"
        elif style == 5:
            data = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a\x00b}\n"
        elif style == 6:
            data = b"\xfe\xff" + text.encode("utf-16-be")[: generator.randint(1, 60)]
        else:
            data = ("kind: Pod\nmetadata: {name: " + "\ud800" + "}\n").encode("utf-8", "surrogatepass")
        yield f"bytes-{index}.{'json' if style in (1, 2, 6) else 'yaml'}", data, "not UTF-8"


def _documents(count: int) -> Iterator[Case]:
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{n}\n  namespace: default\nspec:\n  containers: []\n"
    )
    for index in range(count):
        if index % 2:
            size = (10_000, 20_001)[index // 2 % 2]
            data = "".join("---\n" + pod.format(n=n) for n in range(size)).encode()
        else:
            data = b"---\n" * (20_000, 50_000)[index // 2 % 2]
        yield f"documents-{index}.yaml", data, "10k documents"


def _strange(generator: random.Random) -> Iterator[Case]:
    pod = json.dumps(_pod())
    odd: list[tuple[str, bytes]] = [
        ("empty.yaml", b""),
        ("comments.yaml", b"# only\n# comments\n"),
        ("scalar.yaml", b"just a string\n"),
        ("top-list.json", b"[1, 2, 3]"),
        ("items-null.json", b'{"kind": "List", "apiVersion": "v1", "items": null}'),
        ("items-dict.json", b'{"kind": "PodList", "apiVersion": "v1", "items": {"a": 1}}'),
        ("items-strings.json", b'{"kind": "PodList", "apiVersion": "v1", "items": ["a", 1, null, []]}'),
        ("kind-list.yaml", b"kind: [Pod]\napiVersion: v1\nmetadata: {name: x}\n"),
        ("metadata-list.yaml", b"kind: Pod\napiVersion: v1\nmetadata: [name, x]\n"),
        ("labels-list.yaml", b"kind: Pod\napiVersion: v1\nmetadata: {name: x, labels: [a, b]}\n"),
        ("python-tag.yaml", b"!!python/object/apply:os.system ['echo pwned']\n"),
        ("binary-tag.yaml", b"kind: Pod\napiVersion: v1\nmetadata: {name: !!binary aGVsbG8=}\n"),
        ("complex-key.yaml", b"? [a, b]\n: c\nkind: Pod\n"),
        ("dates.yaml", b"kind: Pod\napiVersion: v1\nmetadata: {name: 2024-01-01, namespace: 1.5}\n"),
        ("nan.json", b'{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": NaN}}'),
        (
            "huge-int.json",
            b'{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "x"}, "spec": {"a": '
            + b"9" * 5000
            + b"}}",
        ),
        ("duplicate-keys.yaml", b"kind: Pod\nkind: Node\napiVersion: v1\nmetadata: {name: x}\n"),
        (
            "giant-string.yaml",
            b'kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\ndata: {a: "'
            + b"A" * (20 << 20)
            + b'"}\n',
        ),
        (
            "giant-json-string.json",
            b'{"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "' + b"n" * (20 << 20) + b'"}}',
        ),
        ("snapshot-bad-header.json", b'{"kubegapSnapshot": "x", "items": [], "coverage": [1, 2]}'),
        (
            "snapshot-bad-coverage.json",
            b'{"kubegapSnapshot": 1, "coverage": {"Pod": 5}, "items": [' + pod.encode() + b"]}",
        ),
        ("control-chars.yaml", b'kind: Pod\napiVersion: v1\nmetadata: {name: "\\e[2J\\a\\x1b]0;pwn\\x07"}\n'),
        ("tabs.yaml", b"kind: Pod\n\tapiVersion: v1\n"),
        ("long-line.yaml", b"kind: Pod\nx: " + b"y" * (5 << 20) + b"\n"),
        ("many-keys.json", json.dumps({f"k{n}": n for n in range(200_000)}).encode()),
        (
            "wide-list.json",
            json.dumps(
                {"kind": "PodList", "apiVersion": "v1", "items": [_pod(f"p{n}") for n in range(20_000)]}
            ).encode(),
        ),
    ]
    for name, data in odd:
        yield f"strange-{name}", data, "strange structure"
    for index in range(60):
        value = generator.choice(_WRONG_VALUES)
        key = generator.choice(["kind", "apiVersion", "metadata", "items", "spec", "status", "coverage"])
        document = {"apiVersion": "v1", "kind": "List", "items": [_pod()], key: value}
        yield f"strange-top-{index}.json", json.dumps(document).encode(), "wrong types"


def hostile_inputs(seed: int = 17) -> Iterator[Case]:
    """Every generated input, in a fixed order for a fixed seed."""
    generator = random.Random(seed)
    yield from _truncated(generator, 220)
    yield from _wrong_types(generator, 260)
    yield from _bit_flips(generator, 200)
    yield from _deep(60)
    yield from _alias_bombs(64)
    yield from _gzip_bombs(18)
    yield from _bad_bytes(generator, 96)
    yield from _documents(8)
    yield from _strange(generator)
