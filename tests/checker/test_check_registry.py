"""Discovery by listing a package: valid modules load, malformed ones stop discovery with one clear line."""

from __future__ import annotations

import itertools
import textwrap
import types
from pathlib import Path

import pytest
from engine_helpers import make_meta

from kubegap.checker.registry import (
    RegistryError,
    all_checks,
    discover,
    get_check,
    load_check_modules,
    module_check_id,
    select_checks,
)
from kubegap.errors import NotFoundError

_COUNTER = itertools.count()

GOOD = """
from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Severity
from kubegap.knowledge.model import Bilingual

T = Bilingual(ko="가", en="a")
CHECK = CheckMeta(id={id!r}, area="gpu-health", severity=Severity.low, title=T, why=T, remediation=T,
                  decides=T, incidents=(), needs=("Node",))

def run(snapshot):
    return []
"""


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> str:
    name = f"fake_checks_{next(_COUNTER)}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for file_name, body in files.items():
        (folder / file_name).write_text(textwrap.dedent(body))
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_discovers_valid_modules_sorted_and_skips_private_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = _package(
        tmp_path,
        monkeypatch,
        {
            "zeta_check.py": GOOD.format(id="zeta-check"),
            "alpha_check.py": GOOD.format(id="alpha-check"),
            "_shared.py": "HELPER = 1\n",
        },
    )
    found = discover(package)
    assert [check.id for check in found] == ["alpha-check", "zeta-check"]
    assert list(found[0].run(None)) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"no_meta.py": "def run(snapshot):\n    return []\n"}, "has no CHECK"),
        ({"no_run.py": GOOD.format(id="no-run").replace("def run", "def other")}, "has no run"),
        ({"wrong_name.py": GOOD.format(id="other-name")}, "requires 'wrong-name'"),
        ({"broken.py": "import does_not_exist_anywhere\n"}, "failed to import: ModuleNotFoundError"),
        ({"syntax.py": "def (:\n"}, "failed to import: SyntaxError"),
    ],
)
def test_malformed_module_is_a_clear_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], message: str
) -> None:
    package = _package(tmp_path, monkeypatch, files)
    with pytest.raises(RegistryError, match=message) as caught:
        discover(package)
    assert package in caught.value.one_line()


def test_duplicate_ids_name_both_modules() -> None:
    first, second = types.ModuleType("pkg_one.same_id"), types.ModuleType("pkg_two.same_id")
    for module in (first, second):
        module.CHECK = make_meta("same-id")  # type: ignore[attr-defined]
        module.run = lambda snapshot: []  # type: ignore[attr-defined]
    with pytest.raises(
        RegistryError, match=r"duplicate check id 'same-id' in pkg_one\.same_id and pkg_two\.same_id"
    ):
        load_check_modules([first, second])


def test_missing_package_means_no_checks() -> None:
    assert discover("kubegap_no_such_package_anywhere.checks") == []


def test_module_check_id() -> None:
    assert module_check_id("kubegap.checker.checks.gpu_health_agent") == "gpu-health-agent"


def test_shipped_registry_is_consistent() -> None:
    checks = all_checks()
    assert [check.id for check in checks] == sorted({check.id for check in checks})
    for check in checks:
        assert get_check(check.id) is check
    with pytest.raises(NotFoundError, match="unknown check 'no-such-check'"):
        get_check("no-such-check")
    assert select_checks(None) == checks
    if checks:
        assert select_checks([checks[0].id, checks[0].id]) == [checks[0]]
