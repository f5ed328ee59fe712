"""The index builds itself, notices changed files, skips broken ones and never shows half a build."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from library_helpers import ALPHA, FIXTURE_ROOT, ids, search

from kubegap.errors import KnowledgeError
from kubegap.library import Library, store


@pytest.fixture
def root(tmp_path: Path) -> Path:
    copy = tmp_path / "knowledge"
    shutil.copytree(FIXTURE_ROOT, copy)
    return copy


def test_reuses_a_fresh_index_and_rebuilds_a_stale_one(root: Path, tmp_path: Path) -> None:
    db = tmp_path / "cache" / "library.sqlite3"
    first = Library.open(root, db)
    assert first.incident_count == 6 and db.is_file()
    built = db.stat().st_ino
    again = Library.open(root, db)
    assert db.stat().st_ino == built, "an unchanged knowledge base must not be rebuilt"
    assert again.incident_count == 6 and not again.is_stale()

    incident = root / "incidents" / f"{ALPHA}.yaml"
    incident.write_text(
        incident.read_text(encoding="utf-8").replace("Alpha run logbook", "Zanzibar quasar logbook"),
        encoding="utf-8",
    )
    assert again.is_stale()
    rebuilt = Library.open(root, db)
    assert db.stat().st_ino != built, "the new index replaces the old file"
    assert ids(search(rebuilt, q="zanzibar")) == {ALPHA}
    assert ids(search(first, q="zanzibar")) == set(), "an open library keeps reading its own snapshot"
    assert not [path for path in db.parent.iterdir() if path.suffix == ".tmp"], "no temporary file left"


def test_broken_file_is_skipped_and_the_rest_still_indexed(root: Path, tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    (root / "incidents" / "zulu-broken.yaml").write_text(
        "id: zulu-broken\ntitle: [unclosed\n", encoding="utf-8"
    )
    library = Library.open(root, db)
    assert library.incident_count == 6
    assert any("zulu-broken.yaml" in problem for problem in library.problems)
    new = root / "incidents" / "golf-2020-01-new-case.yaml"
    text = (root / "incidents" / f"{ALPHA}.yaml").read_text(encoding="utf-8")
    new.write_text(
        text.replace(ALPHA, "golf-2020-01-new-case").replace("2023-01-10", "2020-01-10"), encoding="utf-8"
    )
    grown = Library.open(root, db)
    assert grown.incident_count == 7
    assert grown.incident("golf-2020-01-new-case").date.isoformat() == "2020-01-10"


def test_unwritable_cache_falls_back_to_memory(root: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    library = Library.open(root, blocker / "library.sqlite3")
    assert library.location == ":memory:"
    assert library.incident_count == 6


def test_corrupt_index_file_is_rebuilt(root: Path, tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    db.write_bytes(b"this is not sqlite" * 100)
    assert Library.open(root, db).incident_count == 6


def test_default_location_is_per_user_and_per_root(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(store.DB_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    location = Path(store.default_location(root))
    assert location.parent == tmp_path / "xdg" / "kubegap"
    assert location.name.startswith("library-") and location.suffix == ".sqlite3"
    assert store.default_location(FIXTURE_ROOT) != str(location)
    monkeypatch.setenv(store.DB_ENV, str(tmp_path / "chosen.sqlite3"))
    assert store.default_location(root) == str(tmp_path / "chosen.sqlite3")
    library = Library.open(root)
    assert library.location == str(tmp_path / "chosen.sqlite3")


def test_missing_folder_is_a_knowledge_error(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeError, match="knowledge folder not found"):
        Library.open(tmp_path / "nowhere", ":memory:")


def test_library_from_incident_objects(library: Library) -> None:
    incidents = library.knowledge.incidents
    built = Library.from_incidents(incidents, library.taxonomy)
    assert built.incident_count == len(incidents)
    assert ids(search(built, q="재시작")) == ids(search(library, q="재시작"))


def test_threads_share_one_library(library: Library) -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = ["노드", "restart", "GPU has fallen off the bus", "", "망", "NCCL에서"] * 10
    with ThreadPoolExecutor(max_workers=4) as pool:
        totals = list(pool.map(lambda text: search(library, q=text).total, texts))
    assert totals == [search(library, q=text).total for text in texts]


def test_two_processes_building_at_once_both_get_a_whole_index(root: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    db = tmp_path / "shared.sqlite3"
    code = (
        "import sys; from pathlib import Path; from kubegap.library import Library; "
        "print(Library.open(Path(sys.argv[1]), sys.argv[2]).incident_count)"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", code, str(root), str(db)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=60)[0].strip() for process in processes]
    assert outputs == ["6", "6"]
    assert [process.returncode for process in processes] == [0, 0]
    assert Library.open(root, db).incident_count == 6
