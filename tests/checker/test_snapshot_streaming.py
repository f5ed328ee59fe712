"""Large snapshot files are streamed and compacted: same objects and findings as a whole-file read.

The stream cuts the `items` array into windows; tiny windows here put every kind of boundary (strings
holding brackets, items larger than a window, members after `items`) through the cutter. Compaction
drops fields no check reads and shares equal parts; these tests prove both change no finding.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import orjson
import pytest

import kubegap.checker.sources._stream as stream_module
import kubegap.checker.sources.snapshot_files as snapshot_files
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.snapshot_file import snapshot_document
from kubegap.checker.sources import load_demo, load_snapshot_files
from kubegap.checker.sources._compact import PRUNED_ANNOTATIONS, Compactor
from kubegap.checker.sources._stream import NotStreamable, item_stream
from kubegap.errors import InputError


def _pod(index: int, **extra: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"train-{index}", "namespace": "team", "labels": {"job-name": "train"}},
        "spec": {
            "nodeName": f"gpu-{index % 3}",
            "containers": [{"name": "main", "image": "pytorch:24.10", "args": ["--lr", "0.1"]}],
        },
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]},
        **extra,
    }


def _odd_items() -> list[Any]:
    """Items whose strings hold unbalanced brackets, plus one far larger than a tiny window."""
    items: list[Any] = [_pod(index) for index in range(40)]
    items[5]["metadata"]["annotations"] = {"note": "}}]] a closing brace } in text {"}
    items[9]["spec"]["containers"][0]["args"] = ["sh", "-c", 'echo "[" && echo \\"{"']
    items[17]["metadata"]["annotations"] = {"big": "x" * 5000, "quote": 'she said "}" \\'}
    items.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "{"}})
    return items


def _whole(path: Path, monkeypatch: pytest.MonkeyPatch) -> Snapshot:
    """The snapshot as the whole-file reader makes it (streaming switched off)."""
    with monkeypatch.context() as patch:
        patch.setattr(snapshot_files, "_stream_file", lambda *_: False)
        return load_snapshot_files([path])


def _streamed(path: Path, monkeypatch: pytest.MonkeyPatch, window: int = 96) -> Snapshot:
    """The snapshot streamed with a tiny window; fails if the stream gave up on the file."""
    calls: list[bool] = []
    real = snapshot_files._stream_file

    def spy(*args: Any) -> bool:
        calls.append(real(*args))
        return calls[-1]

    with monkeypatch.context() as patch:
        patch.setattr(stream_module, "WINDOW", window)
        patch.setattr(snapshot_files, "_stream_file", spy)
        snapshot = load_snapshot_files([path])
    assert calls == [True], "the file was read whole, not streamed"
    return snapshot


def _same(left: Snapshot, right: Snapshot) -> None:
    assert orjson.dumps(left.objects) == orjson.dumps(right.objects)
    assert left.coverage == right.coverage
    assert left.notes == right.notes


DOCUMENTS: dict[str, bytes] = {
    # kubectl sorts keys: `kind` comes after the items
    "kubectl.json": json.dumps(
        {"apiVersion": "v1", "items": _odd_items(), "kind": "List"}, indent=4
    ).encode(),
    "compact.json": orjson.dumps({"kind": "List", "apiVersion": "v1", "items": _odd_items(), "metadata": {}}),
    "typed-list.json": orjson.dumps(
        {"kind": "PodList", "apiVersion": "v1", "items": [{"metadata": {"name": f"p{n}"}} for n in range(30)]}
    ),
    "typed-list-kind-last.json": orjson.dumps(
        {"apiVersion": "v1", "items": [{"metadata": {"name": f"p{n}"}} for n in range(30)], "kind": "PodList"}
    ),
    "nested-items-first.json": orjson.dumps(
        {
            "apiVersion": "v1",
            "metadata": {"items": [{"a": "]"}], "x": {"items": []}},
            "items": _odd_items(),
            "kind": "List",
            "tail": [{"items": [{}]}],
        }
    ),
    "bom.json": b"\xef\xbb\xbf" + orjson.dumps({"apiVersion": "v1", "kind": "List", "items": _odd_items()}),
    "empty.json": b'{"apiVersion": "v1", "kind": "JobSetList", "items": [ ]}',
    "secrets.json": orjson.dumps(
        {
            "apiVersion": "v1",
            "kind": "List",
            "items": [
                _pod(1),
                {"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "s"}, "data": {"k": "c2VjcmV0"}},
                _pod(2),
            ],
        }
    ),
    "secret-list.json": orjson.dumps(
        {
            "kind": "SecretList",
            "apiVersion": "v1",
            "items": [{"metadata": {"name": "s"}, "data": {"k": "YQ=="}}],
        }
    ),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_streamed_file_gives_the_same_snapshot_as_a_whole_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(DOCUMENTS[name])
    _same(_streamed(path, monkeypatch), _whole(path, monkeypatch))


def test_gzipped_kubegap_snapshot_streams_with_its_coverage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = load_demo()
    path = tmp_path / "demo.json.gz"
    path.write_bytes(gzip.compress(orjson.dumps(snapshot_document(demo, redacted=False))))
    streamed = _streamed(path, monkeypatch, window=1000)
    _same(streamed, _whole(path, monkeypatch))
    assert streamed.coverage == demo.coverage


@pytest.mark.parametrize(
    "content",
    [b'{"kind": "Pod", "items": 3}', b'{"kind": "List", "items": [1', b"kind: List\nitems: []\n", b"[{}]"],
)
def test_what_cannot_be_streamed_says_so_before_any_item_is_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    with pytest.raises(NotStreamable), item_stream(path, window=8) as stream:
        for _window in stream.windows():
            pass
        stream.document()


def test_a_file_broken_deep_in_its_items_gives_the_whole_read_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cut.json"
    path.write_bytes(orjson.dumps({"kind": "List", "apiVersion": "v1", "items": _odd_items()})[:-900])
    monkeypatch.setattr(stream_module, "WINDOW", 64)
    with pytest.raises(InputError, match=r"cut\.json: not valid JSON"):
        load_snapshot_files([path])


def test_an_object_with_an_items_field_is_one_object_not_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cr.json"
    path.write_bytes(orjson.dumps({"apiVersion": "x.io/v1", "kind": "Menu", "metadata": {"name": "m"},
                                   "items": [_pod(1), _pod(2)]}))  # fmt: skip
    monkeypatch.setattr(stream_module, "WINDOW", 64)
    snapshot = load_snapshot_files([path])
    assert [obj["metadata"]["name"] for obj in snapshot] == ["m"]
    assert len(snapshot.of("x.io/Menu")[0]["items"]) == 2


def test_compaction_keeps_every_value_and_shares_equal_parts() -> None:
    pods = [_pod(index) for index in range(6)]
    pods[0]["metadata"]["managedFields"] = [{"manager": "kubectl", "fieldsV1": {"f:spec": {}}}]
    pods[0]["metadata"]["annotations"] = {PRUNED_ANNOTATIONS[0]: orjson.dumps(pods[1]).decode(), "keep": "1"}
    expected = copy.deepcopy(pods)
    del expected[0]["metadata"]["managedFields"]
    expected[0]["metadata"]["annotations"] = {"keep": "1"}
    compactor = Compactor()
    compacted = [compactor.compact(orjson.loads(orjson.dumps(pod))) for pod in pods]
    assert compacted == expected
    assert orjson.dumps(compacted) == orjson.dumps(expected)  # key order kept too
    assert compacted[0]["status"] is compacted[5]["status"]
    assert compacted[1]["spec"]["containers"] is compacted[2]["spec"]["containers"]
    assert compacted[0]["spec"] is compacted[3]["spec"]  # same node, same spec
    assert compacted[0]["spec"] is not compacted[1]["spec"]


def test_values_equal_in_python_but_not_in_json_are_never_merged() -> None:
    compactor = Compactor()
    objects = [{"kind": "X", "spec": {"value": value}} for value in (1, 1.0, True)]
    kept = [compactor.compact(obj)["spec"]["value"] for obj in objects]
    assert [type(value) for value in kept] == [int, float, bool]


def test_checks_leave_the_shared_objects_as_they_found_them(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    path.write_bytes(orjson.dumps(snapshot_document(load_demo(), redacted=False)))
    snapshot = load_snapshot_files([path])
    pods = snapshot.of("Pod")
    assert any(pods[0]["status"] is pod["status"] for pod in pods[1:]) or any(
        a["spec"]["tolerations"] is b["spec"]["tolerations"] for a in pods for b in pods if a is not b
    ), "the demo should hold shared parts, or this test proves nothing"
    before = orjson.dumps(snapshot.objects)
    run_checks(snapshot, checks=all_checks())
    assert orjson.dumps(snapshot.objects) == before
