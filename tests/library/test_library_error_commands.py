"""`kubegap errors list|show` through the real entry point, on the bundled catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubegap.cli import main


@pytest.fixture(scope="module")
def index_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index for the module: building the bundled one takes seconds."""
    return tmp_path_factory.mktemp("errors-cli") / "library.sqlite3"


@pytest.fixture(autouse=True)
def bundled_knowledge(monkeypatch: pytest.MonkeyPatch, index_file: Path) -> None:
    monkeypatch.delenv("KUBEGAP_KNOWLEDGE", raising=False)
    monkeypatch.setenv("KUBEGAP_DB", str(index_file))
    monkeypatch.setenv("COLUMNS", "120")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def test_show_by_id_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "errors", "show", "xid-79", "--lang", "ko")
    assert code == 0 and "의미" in out and "ornl-2016-titan-gpu-resistor-corrosion" in out
    code, out, _ = run(capsys, "errors", "show", "XID-79", "--lang", "en")
    assert code == 0 and "Usual action" in out and "docs.nvidia.com" in out


def test_show_resolves_a_pasted_dmesg_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "errors",
        "show",
        "kernel: NVRM: Xid (PCI:0000:65:00): 94, pid=5678, Contained: ECC error",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["id"] == "xid-94"
    assert "k8s-device-plugin-2024-xid94-allocatable-not-recovered" in data["incidents"]
    assert "gpu-allocatable-below-capacity" in data["checks"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XID79", "xid-79"),
        ("xid-79", "xid-79"),
        ("Xid 79:", "xid-79"),
        (
            "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<55004> with error 12, opcode 0, len 0, "
            "vendor err 129",
            "nccl-ib-completion-error",
        ),
    ],
)
def test_show_resolves_any_spelling_and_nccl_lines(
    capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    code, out, err = run(capsys, "errors", "show", text, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data if isinstance(data, dict) else data[0])["id"] == expected


def test_unknown_text_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "errors", "show", "the printer is on fire")
    assert code != 0 and out == ""
    assert err.startswith("Error: no catalog entry matches") and err.count("\n") == 1


def test_list_filters_by_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "errors", "list", "--family", "etcd", "--json")
    ids = {entry["id"] for entry in json.loads(out)}
    assert code == 0 and ids == {"etcd-database-space-exceeded", "etcd-request-timed-out"}
    code, out, _ = run(capsys, "errors", "list", "--lang", "en")
    assert code == 0 and "xid-79" in out and "nccl-watchdog-timeout" in out


def test_search_output_names_the_catalog_entry_and_marks_partial_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "incidents", "list", "-q", "Xid 79", "--lang", "en")
    assert code == 0 and "kubegap errors show xid-79" in out
    code, out, _ = run(capsys, "incidents", "list", "-q", "infinband", "--lang", "en")
    assert code == 0 and "Nearby terms: InfiniBand" in out


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_list_piped_is_one_entry_per_line_in_catalog_order(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """In a pipe (as under capsys) `errors list` prints one `id  family  title` line per entry, no box
    and no folded titles, so `grep xid-119` finds the whole record; Xid codes come in numeric order."""
    code, out, _ = run(capsys, "errors", "list", "--lang", lang)
    lines = out.splitlines()
    assert code == 0 and not any(character in out for character in "┏│└")
    entries = json.loads(run(capsys, "errors", "list", "--lang", lang, "--json")[1])
    assert len(lines) == len(entries)
    for line, entry in zip(lines, entries, strict=True):
        assert line == f"{entry['id']}  {entry['family']}  {entry['title']}"
    xids = [int(line.split()[0].removeprefix("xid-")) for line in lines if line.startswith("xid-")]
    assert len(xids) > 5 and xids == sorted(xids)
