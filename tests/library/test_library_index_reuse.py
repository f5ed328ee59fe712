"""An index is built once per knowledge change: other opens copy it, and a slow build says so on stderr."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from library_helpers import ALPHA, FIXTURE_ROOT, ids, search

from kubegap.cli import main
from kubegap.library import Library, index, store
from kubegap.library.build_notice import building_notice


@pytest.fixture
def root(tmp_path: Path) -> Path:
    copy = tmp_path / "knowledge"
    shutil.copytree(FIXTURE_ROOT, copy)
    return copy


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("KUBEGAP_DB", raising=False)
    return folder


def _no_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make any index build fail the test, and count the attempts."""
    attempts: list[str] = []

    def refuse(*_: object, **__: object) -> None:
        attempts.append("build")
        raise AssertionError("the index was built again")

    monkeypatch.setattr(index, "build", refuse)
    return attempts


def test_memory_index_is_copied_from_the_user_cache_without_a_build(
    root: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = Library.open(root)
    assert Path(stored.location).is_relative_to(cache)
    attempts = _no_builds(monkeypatch)
    copied = Library.open(root, ":memory:")
    assert copied.location == ":memory:" and copied.incident_count == 6
    assert ids(search(copied, q="ECC")) == ids(search(stored, q="ECC")) == {ALPHA}
    assert attempts == []
    assert sorted(path.name for path in (cache / "kubegap").iterdir()) == [Path(stored.location).name]


def test_memory_index_is_built_when_the_cache_holds_another_version(root: Path, cache: Path) -> None:
    Library.open(root)
    incident = root / "incidents" / f"{ALPHA}.yaml"
    incident.write_text(incident.read_text(encoding="utf-8").replace("Alpha run", "Zanzibar run"), "utf-8")
    fresh = Library.open(root, ":memory:")
    assert ids(search(fresh, q="zanzibar")) == {ALPHA}, "a stale cache is never copied"


def test_a_new_index_file_is_copied_from_the_user_cache(
    root: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Library.open(root)
    attempts = _no_builds(monkeypatch)
    elsewhere = tmp_path / "elsewhere" / "library.sqlite3"
    copied = Library.open(root, elsewhere)
    assert copied.location == str(elsewhere) and elsewhere.is_file() and copied.incident_count == 6
    assert store.stored_fingerprint(str(elsewhere)) == store.fingerprint(root)
    assert attempts == []
    assert not [path for path in elsewhere.parent.iterdir() if path.suffix == ".tmp"]


def test_a_slow_build_says_so_on_stderr_and_a_quick_one_says_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBEGAP_LANG", "en")
    with building_notice(246, after=0.0) as build:
        time.sleep(0.2)
        build.kept_in = "/cache/library.sqlite3"
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "kubegap: building the search index (246 incidents; done once, takes a few seconds)…"
    assert lines[1].startswith("kubegap: search index built in ")
    assert lines[1].endswith("; later runs use it from /cache/library.sqlite3.")
    monkeypatch.setenv("KUBEGAP_LANG", "ko")
    with building_notice(6, after=0.0):
        time.sleep(0.2)
    korean = capsys.readouterr().err.splitlines()
    assert korean[0].startswith("kubegap: 검색 색인을 만드는 중입니다(사례 6건")
    assert korean[1].endswith("(메모리에만 둡니다).")
    with building_notice(6, after=5.0):
        pass
    assert capsys.readouterr().err == ""


def test_index_command_builds_once_and_later_searches_reuse_it(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, root: Path
) -> None:
    monkeypatch.setenv("KUBEGAP_KNOWLEDGE", str(root))
    with pytest.raises(SystemExit) as exited:
        main(["incidents", "index", "--lang", "en"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("search index ready: 6 incidents, ") and str(cache) in out
    attempts = _no_builds(monkeypatch)
    with pytest.raises(SystemExit) as exited:
        main(["incidents", "list", "-q", "ECC", "--json"])
    assert exited.value.code == 0 and ALPHA in capsys.readouterr().out
    assert attempts == []


def test_staleness_rehashes_the_files_only_when_their_stamps_move(
    root: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = Library.open(root)
    assert not library.is_stale()
    hashed: list[Path] = []
    real = store.fingerprint

    def counted(folder: Path) -> str:
        hashed.append(folder)
        return real(folder)

    monkeypatch.setattr(store, "fingerprint", counted)
    assert not library.is_stale() and not library.is_stale()
    assert hashed == [], "unchanged files are not read again"
    incident = root / "incidents" / f"{ALPHA}.yaml"
    incident.write_text(incident.read_text(encoding="utf-8").replace("Alpha run", "Zanzibar run"), "utf-8")
    assert library.is_stale() and hashed == [root]


def test_a_second_copy_of_the_same_knowledge_reuses_the_first_ones_index(
    root: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second install of the package (a wheel beside a checkout) has the same knowledge elsewhere."""
    first = Library.open(root)
    second_root = tmp_path / "site-packages" / "knowledge"
    shutil.copytree(root, second_root)
    attempts = _no_builds(monkeypatch)
    second = Library.open(second_root)
    assert second.location != first.location and Path(second.location).parent == cache / "kubegap"
    assert second.incident_count == 6 and attempts == []
    assert Library.open(second_root, ":memory:").incident_count == 6 and attempts == []


def test_the_notice_can_be_turned_off(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBEGAP_BUILD_NOTICE", "off")
    with building_notice(6):
        time.sleep(0.2)
    monkeypatch.setenv("KUBEGAP_BUILD_NOTICE", "0.05")
    with building_notice(6):
        time.sleep(0.3)
    assert capsys.readouterr().err.count("kubegap: ") == 2, "off is silent; 0.05 s speaks"
