"""Every subcommand run with `--lang ko` speaks Korean: no English prose is left in what a person reads.

Ids, code and proper nouns stay in Latin letters (`korean_words` tells them apart). Output that is
code by nature is named as such and judged only on its human lines: `rbac` prints a YAML manifest,
`knowledge schema` a JSON Schema, `agent setup` a config snippet; `mcp` speaks JSON-RPC and has no
human output. `snapshot` and a live `scan` run against the Kubernetes API emulator; `serve` is
started for real and its start-up lines are read.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

_TESTS = Path(__file__).resolve().parents[1]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from cli_language import TERMS, assert_korean  # noqa: E402

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.testing import TOKEN, assert_read_only  # noqa: E402
from korean_words import english_words  # noqa: E402
from kubegap.cli import main  # noqa: E402
from kubegap.knowledge import load_knowledge  # noqa: E402

INCIDENT = "openai-2025-06-gpu-host-os-update-network-loss"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "ko", *args])
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


@pytest.fixture(autouse=True)
def _no_cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBEGAP_LIBRARY_URL", raising=False)
    monkeypatch.setenv("KUBEGAP_DB", ":memory:")


@pytest.mark.parametrize(
    "args",
    [
        ("scan", "--demo"),
        ("scan", "--demo", "--format", "markdown"),
        ("checks", "list"),
        ("checks", "show", "nccl-hang-dump"),
        ("checks", "show", "dcgm-ecc-xid-counters"),
        ("incidents", "list"),
        ("incidents", "list", "-q", "NCCL"),
        ("incidents", "show", INCIDENT),
        ("incidents", "similar", INCIDENT),
        ("knowledge", "validate"),
    ],
    ids=" ".join,
)
def test_people_output_is_korean(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = _run(capsys, *args)
    assert code in (0, 1), err  # scan exits 1 when the demo has gaps
    assert_korean(out + err, " ".join(args))


def test_facet_trees_name_terms_by_korean_label_with_the_id_beside_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`facets` shows `label count · id`: the id part is an id, the rest must be Korean."""
    _, out, _ = _run(capsys, "facets")
    taxonomy = load_knowledge().taxonomy
    term_ids = {term.id for facet in taxonomy.facets.values() for term in facet.terms}
    assert term_ids
    for line in out.splitlines():
        label, _, term = line.rpartition(" · ")
        if term.strip() in term_ids:
            assert not english_words(label, TERMS), line


def test_corpus_figures_are_korean_with_ids_beside_labels(capsys: pytest.CaptureFixture[str]) -> None:
    """`knowledge stats` names values as `label · id`, like `facets`: all but the id must be Korean."""
    code, out, _ = _run(capsys, "knowledge", "stats")
    assert code == 0
    taxonomy = load_knowledge().taxonomy
    ids = {term.id for facet in taxonomy.facets.values() for term in facet.terms}
    ids |= {organization.kind.value for organization in taxonomy.organizations}
    ids |= {term.id for term in taxonomy.terms("scope")}
    shown = [
        line.rpartition(" · ")[0] if line.rpartition(" · ")[2] in ids else line for line in out.splitlines()
    ]
    assert_korean("\n".join(shown), "knowledge stats")


@pytest.mark.parametrize(
    "args",
    [
        ("scan", "--check", "nccl-watchdg", "--demo"),
        ("checks", "show", "no-such-check"),
        ("incidents", "show", "no-such-incident"),
        ("incidents", "list", "--page", "99"),
        ("incidents", "list", "--cause", "gremlins"),
        ("scan", "--kubeconfig", "/no/such/kubeconfig"),
        ("scan", "--snapshot", "/no/such/snapshot.json"),
        ("scna",),
        ("scan", "--formt", "x"),
        ("scan", "--format", "xml"),
        ("checks", "show"),
        ("snapshot",),
    ],
    ids=" ".join,
)
def test_errors_are_korean_one_liners(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = _run(capsys, *args)
    assert code == 2 and not out
    assert err.startswith("오류: ") and err.count("\n") == 1, err
    assert_korean(err, " ".join(args))


def test_the_boxed_table_labels_are_korean(capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal table (forced with --format table) carries the same Korean labels as the plain layout."""
    code, out, _ = _run(capsys, "scan", "--demo", "--format", "table", "--width", "160", "--all")
    assert code == 1
    for korean in (
        "점검 결과",
        "상태",
        "심각도",
        "고치는 법:",
        "사례:",
        "읽은 범위:",
        "개: 틈 발견",
        "발견 사항: 틈",
        "Secret: kubegap은",
    ):
        assert korean in out, korean
    for english in ("Fix:", "Incident:", "Coverage:", "Findings:", "Checks", "Status", "Note:", "exempted"):
        assert english not in out, english


def test_code_outputs_keep_code_and_say_the_rest_in_korean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = _run(capsys, "rbac")
    assert code == 0 and out.startswith("#") and "kind: ClusterRole" in out  # a manifest: code
    code, out, _ = _run(capsys, "knowledge", "schema")
    assert code == 0 and out.lstrip().startswith("{")  # a JSON Schema: code
    code, out, err = _run(capsys, "agent", "setup", "--client", "codex", "--codex-home", str(tmp_path))
    assert code == 0 and "[mcp_servers.kubegap]" in out  # a config snippet: code
    assert_korean(err, "agent setup (stderr)")


def test_live_scan_and_snapshot_speak_korean(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    emulator = KubeEmulator([], token=TOKEN).start()
    try:
        kubeconfig = emulator.write_kubeconfig(tmp_path / "kubeconfig", token=TOKEN)
        code, out, err = _run(capsys, "scan", "--kubeconfig", str(kubeconfig))
        assert code in (0, 1), err
        assert_korean(out, "live scan", frozenset({"emulator"}))  # the context's name
        code, _, err = _run(
            capsys, "snapshot", "--kubeconfig", str(kubeconfig), "-o", str(tmp_path / "s.json")
        )
        assert code == 0, err
        assert_korean(err, "snapshot")
    finally:
        emulator.stop()
    assert_read_only(emulator)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_start_up_lines_are_korean(tmp_path: Path) -> None:
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "KUBEGAP_DB": ":memory:",
        "KUBECONFIG": str(tmp_path / "x"),
    }
    command = [
        sys.executable,
        "-m",
        "kubegap",
        "--lang",
        "ko",
        "serve",
        "--demo",
        "--port",
        str(_free_port()),
    ]
    process = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline() for _ in range(2)]
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
    text = "".join(lines)
    assert "클러스터 보고서" in text and "사례 라이브러리" in text, text
    assert_korean(text, "serve")


def test_broken_input_files_are_korean_one_liners(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = {"bad.yaml": b"garbage: [\n", "bad.json": b'{"items": [', "blob.yaml": b"\x00\x01binary"}
    for name, content in broken.items():
        path = tmp_path / name
        path.write_bytes(content)
        code, out, err = _run(capsys, "scan", "--snapshot", str(path))
        assert code == 2 and not out and err.startswith(f"오류: {path}: ") and err.count("\n") == 1, err
        assert_korean(err.replace(str(path), ""), name)


def test_fleet_scan_with_a_dead_and_a_forbidden_cluster_speaks_korean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The fleet table and its reasons (unreachable, refused) read as Korean, server words aside."""
    good = KubeEmulator([], token=TOKEN).start()
    refusing = KubeEmulator([], token="another-token").start()
    try:
        config = yaml.safe_load(good.write_kubeconfig(tmp_path / "a", token=TOKEN).read_text())
        second = yaml.safe_load(
            refusing.write_kubeconfig(tmp_path / "b", context="refused", token=TOKEN).read_text()
        )
        config["clusters"].append({"name": "refusing", "cluster": second["clusters"][0]["cluster"]})
        config["clusters"].append({"name": "dead", "cluster": {"server": f"http://127.0.0.1:{_free_port()}"}})
        config["contexts"] += [
            {"name": "refused", "context": {"cluster": "refusing", "user": "emulator-user"}},
            {"name": "dead", "context": {"cluster": "dead", "user": "emulator-user"}},
        ]
        path = tmp_path / "fleet"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        fleet = ("scan", "--kubeconfig", str(path), "--all-contexts", "--timeout", "3")
        code, out, err = _run(capsys, *fleet, "-f", "table")
        assert code == 3, err  # a cluster could not be read
        assert "스캔 못 함" in out and "연결 불가" in out and "권한 거부" in out, out
        assert_korean(out, "fleet scan", frozenset({"emulator", "refused", "dead"}))
        code, out, err = _run(capsys, *fleet)  # piped: one line per cluster, then one per fail
        assert code == 3 and "연결 불가" in out and "권한 거부" in out, out
        assert_korean(out, "fleet scan (plain)", frozenset({"emulator", "refused", "dead"}))
    finally:
        good.stop()
        refusing.stop()
    assert_read_only(good)
