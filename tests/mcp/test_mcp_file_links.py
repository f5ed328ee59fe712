"""scan_files judges every file it would read on its real path, not only the folder it was given.

A repository an agent is asked to scan can hold symlinks (git keeps them) to `~/.kube/config`,
`~/.ssh/...` or `/proc/self/environ`; before, a folder inside the home folder passed the scope check
and the walker then read whatever its links led to.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import MANIFESTS, error_text, result_text

from kubegap.checker.sources import _files

pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home" / "me"
    for private in (".kube", ".ssh", ".config/gcloud"):
        (folder / private).mkdir(parents=True)
    (folder / ".kube" / "config").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: from-kube-config}\nspec: {containers: []}\n"
    )
    (folder / ".ssh" / "id_rsa").write_text("kind: Pod\nmetadata: {name: from-ssh}\n")
    (folder / ".config" / "gcloud" / "credentials.json").write_text('{"kind": "Pod"}')
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real path of every file the scan reads."""
    seen: list[str] = []
    original = _files.read_bytes

    def spy(path: Path) -> bytes:
        seen.append(os.path.realpath(path))
        return original(path)

    monkeypatch.setattr(_files, "read_bytes", spy)
    return seen


async def test_links_inside_an_allowed_folder_that_lead_out_of_it_are_never_read(
    client: Any, home: Path, reads: list[str]
) -> None:
    work = home / "work"
    work.mkdir()
    (work / "training.yaml").write_text((MANIFESTS / "training.yaml").read_text())
    (work / "kubeconfig.yaml").symlink_to(home / ".kube" / "config")
    (work / "key.yaml").symlink_to(home / ".ssh" / "id_rsa")
    (work / "environ.yaml").symlink_to("/proc/self/environ")
    (work / "nested").mkdir()
    (work / "nested" / "gcloud.json").symlink_to(home / ".config" / "gcloud" / "credentials.json")
    result = await client.call_tool("scan_files", {"paths": [str(work)]})
    text = result_text(result)
    assert not result.is_error, text[:300]
    assert reads == [str((work / "training.yaml").resolve())]
    assert "from-kube-config" not in text and "from-ssh" not in text
    assert "skipped 4 link(s) that lead outside the folder scanned" in text


async def test_a_folder_that_holds_a_credential_folder_is_refused(client: Any, home: Path) -> None:
    (home / ".config" / "pod.yaml").write_text((MANIFESTS / "training.yaml").read_text())
    text = error_text(await client.call_tool("scan_files", {"paths": [str(home / ".config")]}))
    assert "where credentials live" in text and "gcloud" in text, text
    assert "\n" not in text


async def test_a_link_inside_the_folder_that_stays_inside_is_read(
    client: Any, home: Path, reads: list[str]
) -> None:
    work = home / "work"
    (work / "base").mkdir(parents=True)
    (work / "base" / "training.yaml").write_text((MANIFESTS / "training.yaml").read_text())
    (work / "overlay.yaml").symlink_to(work / "base" / "training.yaml")
    result = await client.call_tool("scan_files", {"paths": [str(work)]})
    assert not result.is_error, result_text(result)[:300]
    assert reads == [str((work / "base" / "training.yaml").resolve())] * 2
