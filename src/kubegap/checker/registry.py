"""Find every check by listing `kubegap.checker.checks`: adding a check never edits a list.

A check module must define `CHECK = CheckMeta(...)` whose id equals its file name (with '-' for '_')
and a callable `run(snapshot)`. A module that breaks these rules is a programming error in this
package, so it stops discovery with one clear line naming the module rather than hiding the check.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding
from kubegap.checker.snapshot import Snapshot
from kubegap.errors import KubegapError, NotFoundError
from kubegap.text import did_you_mean

CHECKS_PACKAGE = "kubegap.checker.checks"

RunFunction = Callable[[Snapshot], Iterable[Finding]]


class RegistryError(KubegapError):
    """A check module is malformed (missing CHECK or run, id not matching its file, duplicate id)."""

    code = "check-invalid"
    exit_code = 2
    http_status = 500


@dataclass(frozen=True)
class CheckModule:
    """A discovered check: its metadata and its pure run function."""

    meta: CheckMeta
    run: RunFunction

    @property
    def id(self) -> str:
        return self.meta.id


def module_check_id(module_name: str) -> str:
    """`gpu_health_agent` -> `gpu-health-agent`: the id a module of that name must declare."""
    return module_name.rsplit(".", 1)[-1].replace("_", "-")


def load_check_module(module: ModuleType) -> CheckModule:
    """Validate one imported module and wrap it; raise RegistryError naming the module if malformed."""
    name = module.__name__
    meta = getattr(module, "CHECK", None)
    if not isinstance(meta, CheckMeta):
        raise RegistryError(f"check module {name} has no CHECK = CheckMeta(...)")
    run = getattr(module, "run", None)
    if not callable(run):
        raise RegistryError(f"check module {name} has no run(snapshot) function")
    expected = module_check_id(name)
    if meta.id != expected:
        raise RegistryError(
            f"check module {name} declares id {meta.id!r}; its file name requires {expected!r}"
        )
    return CheckModule(meta=meta, run=run)


def discover(package_name: str = CHECKS_PACKAGE) -> list[CheckModule]:
    """Import every module of the package (sorted by name) and validate it. No package means no checks."""
    try:
        package = importlib.import_module(package_name)
    except ModuleNotFoundError as error:
        if error.name and package_name.startswith(error.name):
            return []
        raise
    modules = []
    paths = list(getattr(package, "__path__", []))
    for info in sorted(pkgutil.iter_modules(paths), key=lambda item: item.name):
        if info.ispkg or info.name.startswith("_"):
            continue
        module_name = f"{package_name}.{info.name}"
        try:
            modules.append(importlib.import_module(module_name))
        except Exception as error:
            first_line = (str(error).splitlines() or [""])[0]
            raise RegistryError(
                f"check module {module_name} failed to import: {type(error).__name__}: {first_line}"
            ) from None
    return load_check_modules(modules)


def load_check_modules(modules: Iterable[ModuleType]) -> list[CheckModule]:
    """Validate modules in order; two modules declaring one id is an error naming both."""
    found: list[CheckModule] = []
    seen: dict[str, str] = {}
    for module in modules:
        check = load_check_module(module)
        if check.id in seen:
            raise RegistryError(f"duplicate check id {check.id!r} in {seen[check.id]} and {module.__name__}")
        seen[check.id] = module.__name__
        found.append(check)
    return found


@cache
def _discovered() -> tuple[CheckModule, ...]:
    return tuple(discover())


def all_checks() -> list[CheckModule]:
    """Every check shipped with kubegap, sorted by id."""
    return sorted(_discovered(), key=lambda check: check.id)


def get_check(check_id: str) -> CheckModule:
    for check in _discovered():
        if check.id == check_id:
            return check
    hint_en = did_you_mean(check_id, (check.id for check in all_checks()), "en")
    hint_ko = did_you_mean(check_id, (check.id for check in all_checks()), "ko")
    listing = "; `kubegap checks list` shows them all"
    raise NotFoundError(
        message(
            "알 수 없는 점검 {wanted}입니다{hint_ko}. 전체 목록은 `kubegap checks list`로 봅니다",
            "unknown check {wanted}{hint_en}{listing}",
            wanted=repr(check_id[:80]),
            hint_ko=hint_ko,
            hint_en=hint_en,
            listing=listing,
        )
    )


def select_checks(check_ids: Iterable[str] | None) -> list[CheckModule]:
    """The checks to run: all, or exactly the ones named (an unknown id is an error, not a silent skip)."""
    if not check_ids:
        return all_checks()
    selected: dict[str, CheckModule] = {}
    for check_id in check_ids:
        selected.setdefault(check_id, get_check(check_id))
    return list(selected.values())
