"""The sweep's other doors: exemption files, kubeconfigs, and files that are not files.

`fuzz_inputs.py` makes hostile snapshot and manifest bytes; this module adds what else a user hands
kubegap by path: an `--exemptions` file, a `--kubeconfig`, and special files in every role (a FIFO,
`/dev/zero`, a 2 GB sparse file, a symlink loop, a folder named like a file, a dangling link, links
to private files inside a scanned folder). `special_jobs(folder)` creates the special files on disk;
the byte families are plain (name, bytes, family) cases like `hostile_inputs`.

Every kubeconfig points at a closed port on 127.0.0.1 or at an address that cannot be parsed, and
none has an `exec` plugin, so no case reaches the network or runs a command.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from fuzz_inputs import FIXTURES, Case

SPARSE_BYTES = 2 << 30


def _kubeconfig(server: str, **user: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "users": [{"name": "u", "user": user or {"token": "kubegap-fuzz-token"}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "x",
    }


def kubeconfig_inputs(generator: random.Random, closed_url: str) -> Iterator[Case]:
    """Kubeconfigs cut short, of the wrong types, nested, bombed, of odd bytes and odd fields."""
    good = _kubeconfig(closed_url)
    text = yaml.safe_dump(good).encode()
    for index in range(20):
        yield f"kubeconfig-truncated-{index}.yaml", text[: generator.randint(0, len(text) - 1)], "kubeconfig"
    paths = [
        ("clusters",),
        ("users",),
        ("contexts",),
        ("current-context",),
        ("clusters", 0, "cluster"),
        ("clusters", 0, "cluster", "server"),
        ("users", 0, "user"),
        ("users", 0, "user", "token"),
        ("contexts", 0, "context"),
        ("contexts", 0, "context", "cluster"),
        ("contexts", 0, "name"),
    ]
    values: list[Any] = [None, 0, 2**70, -1.5, True, "", [], {}, [None], {"": None}, "\x1b[2J", "🙂" * 50]
    for index in range(40):
        document = json.loads(json.dumps(good))
        path = paths[index % len(paths)]
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = values[index % len(values)]
        yield f"kubeconfig-wrong-type-{index}.yaml", yaml.safe_dump(document).encode(), "kubeconfig"
    odd_clusters: list[dict[str, Any]] = [
        {"server": closed_url, "proxy-url": "socks5://127.0.0.1:1"},
        {"server": closed_url, "proxy-url": "::not a url::"},
        {"server": closed_url, "proxy-url": "http://[::1"},
        {"server": "http://[::1"},
        {"server": "not a url at all"},
        {"server": "ftp://127.0.0.1:1"},
        {"server": closed_url, "certificate-authority-data": "!!not base64!!"},
        {"server": closed_url, "certificate-authority-data": "aGVsbG8="},
        {"server": closed_url, "certificate-authority": "/nonexistent/ca.crt"},
        {"server": closed_url, "tls-server-name": "\x00"},
        {"server": closed_url, "insecure-skip-tls-verify": "yes please"},
        {"server": closed_url + "/" + "p" * 100_000},
    ]
    for index, cluster in enumerate(odd_clusters):
        document = _kubeconfig(closed_url)
        document["clusters"][0]["cluster"] = cluster
        yield f"kubeconfig-cluster-{index}.yaml", yaml.safe_dump(document).encode(), "kubeconfig"
    odd_users: list[dict[str, Any]] = [
        {"token": "kubegap-fuzz-token\n"},
        {"token": "a\nb"},
        {"token": "\x00"},
        {"token": "x" * 1_000_000},
        {"username": "u", "password": "p\r\nX-Injected: 1"},
        {"client-certificate-data": "!!"},
        {"client-key-data": "aGVsbG8=", "client-certificate-data": "aGVsbG8="},
        {"tokenFile": "/nonexistent/token"},
        {"auth-provider": {"name": "oidc", "config": {"id-token": "x"}}},
        {"auth-provider": {"name": "nonexistent-provider"}},
    ]
    for index, user in enumerate(odd_users):
        yield (
            f"kubeconfig-user-{index}.yaml",
            yaml.safe_dump(_kubeconfig(closed_url, **user)).encode(),
            "kubeconfig",
        )
    for depth in (50, 500, 5000, 50_000):
        nested = "clusters: " + "[" * depth + "]" * depth + "\n"
        yield f"kubeconfig-deep-{depth}.yaml", nested.encode(), "kubeconfig"
    for index in range(6):
        levels, fanout = 4 + index, 6 + index
        lines = [f"l0: &l0 [{', '.join(['lol'] * fanout)}]"]
        lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * fanout)}]" for n in range(1, levels + 1)]
        yield f"kubeconfig-alias-{index}.yaml", ("\n".join(lines) + "\n").encode(), "kubeconfig"
    yield "kubeconfig-self-alias.yaml", b"clusters: &a [*a]\n", "kubeconfig"
    yield "kubeconfig-not-utf8.yaml", b"\xff\xfe\x00kind: Config\n", "kubeconfig"
    yield "kubeconfig-utf16.yaml", yaml.safe_dump(good).encode("utf-16"), "kubeconfig"
    yield "kubeconfig-binary.yaml", generator.randbytes(4000), "kubeconfig"
    yield "kubeconfig-list.yaml", b"- a\n- b\n", "kubeconfig"
    yield "kubeconfig-python-tag.yaml", b"!!python/object/apply:os.system ['true']\n", "kubeconfig"


def exemption_inputs(generator: random.Random) -> Iterator[Case]:
    """Exemption files: the good shape with wrong types, cut short, nested, bombed, not text."""
    good = (
        "exemptions:\n- check: gpu-health-agent\n  namespace: team-*\n  reason: accepted\n"
        "  expires: 2999-01-01\n"
    )
    for index in range(15):
        yield (
            f"exemptions-truncated-{index}.yaml",
            good.encode()[: generator.randint(0, len(good) - 1)],
            "exemptions",
        )
    values = ["null", "0", "[]", "{}", "2999-13-45", "'[a-'", "'" + "*" * 5000 + "'", '"\\e[2J"', "9" * 400]
    for index, field in enumerate(("check", "namespace", "reason", "expires", "name", "kind") * 3):
        text = good.replace(f"  {field}:", f"  {field}: {values[index % len(values)]}\n  x{field}:")
        if field in ("name", "kind"):
            text += f"  {field}: {values[index % len(values)]}\n"
        yield f"exemptions-wrong-type-{index}.yaml", text.encode(), "exemptions"
    for depth in (100, 101, 5000):
        yield (
            f"exemptions-deep-{depth}.yaml",
            ("exemptions: " + "[" * depth + "]" * depth).encode(),
            "exemptions",
        )
    for index in range(6):
        levels, fanout = 4 + index, 6 + index
        lines = [f"l0: &l0 [{', '.join(['lol'] * fanout)}]"]
        lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * fanout)}]" for n in range(1, levels + 1)]
        yield f"exemptions-alias-{index}.yaml", ("\n".join(lines) + "\n").encode(), "exemptions"
    yield "exemptions-self-alias.yaml", b"exemptions: &a [*a]\n", "exemptions"
    yield "exemptions-two-documents.yaml", (good + "---\n" + good).encode(), "exemptions"
    yield "exemptions-not-utf8.yaml", b"exemptions:\n- check: \xff\xfe\n", "exemptions"
    yield "exemptions-binary.yaml", generator.randbytes(3000), "exemptions"
    yield "exemptions-flow.yaml", b"{exemptions: [{check: gpu-health-agent, reason: r}]}", "exemptions"
    yield (
        "exemptions-giant.yaml",
        b"exemptions:\n- check: x\n  reason: " + b"r" * (20 << 20) + b"\n",
        "exemptions",
    )


def special_jobs(folder: Path, closed_url: str) -> list[tuple[str, list[str], str]]:
    """Special files on disk, each used in every role: (path, modes, family)."""
    folder.mkdir(parents=True, exist_ok=True)
    private = folder / "private"
    private.mkdir()
    (private / "config").write_text(yaml.safe_dump(_kubeconfig(closed_url)))
    made: list[Path] = []
    fifo = folder / "fifo.yaml"
    os.mkfifo(fifo)
    made.append(fifo)
    for name, target in (
        ("zero.json", "/dev/zero"),
        ("random.yaml", "/dev/urandom"),
        ("environ.yaml", "/proc/self/environ"),
        ("dangling.yaml", str(folder / "missing.yaml")),
        ("loop.yaml", str(folder / "loop.yaml")),
        ("private.yaml", str(private / "config")),
    ):
        (folder / name).symlink_to(target)
        made.append(folder / name)
    sparse = folder / "sparse.json"
    with sparse.open("wb") as file:
        file.truncate(SPARSE_BYTES)
    made.append(sparse)
    sparse_yaml = folder / "sparse.yaml"
    with sparse_yaml.open("wb") as file:
        file.write(b"kind: Pod\n")
        file.truncate(SPARSE_BYTES)
    made.append(sparse_yaml)
    directory = folder / "directory.yaml"
    directory.mkdir()
    made.append(directory)
    modes = ["snapshot", "manifests", "exemptions", "kubeconfig"]
    jobs = [(str(path), modes, "special file") for path in made]
    # The same files found by walking a folder, beside one good manifest.
    walked = folder / "walked"
    walked.mkdir()
    (walked / "good.yaml").write_bytes(next(iter(sorted(FIXTURES.glob("*/pass-*.yaml")))).read_bytes())
    for path in made:
        (walked / path.name).symlink_to(path)
    os.mkfifo(walked / "own-fifo.yaml")
    with (walked / "own-sparse.json").open("wb") as file:
        file.truncate(SPARSE_BYTES)
    (walked / "own-loop.yaml").symlink_to(walked / "own-loop.yaml")
    jobs.append((str(walked), ["snapshot", "manifests"], "special file"))
    return jobs
