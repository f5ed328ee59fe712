"""Time every regular expression kubegap compiles on 1 MB adversarial strings; one JSON line per run.

Run as a script by `test_pattern_linear_time.py` in a child process, so a pattern that turned
quadratic is stopped by the parent's timeout instead of hanging the suite. The patterns are found,
not listed: every module of the package is imported and every compiled pattern it holds at module
level (or in a module-level tuple, list or dict) is taken, plus each token detector on its own.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
import time
from typing import Any

import kubegap
from kubegap.redaction import redact_text
from kubegap.redaction.detectors import all_patterns

SIZE = 1 << 20
_GENERIC_UNITS = ("a", "A0", "-", " ", ".-a", "a:", "a=", "a://", "--a ", "eyJa.", "\\n", "가", "0", "$a{")


def _patterns() -> dict[str, re.Pattern[Any]]:
    found: dict[str, re.Pattern[Any]] = {}
    seen: set[int] = set()
    for module_info in pkgutil.walk_packages(kubegap.__path__, "kubegap."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for attribute, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value
            candidates = values if isinstance(values, tuple | list | type({}.values())) else [value]
            for candidate in candidates:
                if isinstance(candidate, re.Pattern) and id(candidate) not in seen:
                    seen.add(id(candidate))
                    found[f"{module_info.name}.{attribute}:{candidate.pattern[:40]}"] = candidate
    for name, pattern in all_patterns().items():
        if id(pattern) not in seen:
            seen.add(id(pattern))
            found[f"detector {name}"] = pattern
    return found


def _literals(pattern: re.Pattern[Any]) -> list[str]:
    """Runs of literal characters in the pattern (its prefixes and separators), to repeat."""
    parser: Any = getattr(re, "_parser")  # noqa: B009 - the stdlib's own parser, for tests only
    runs: list[str] = []

    def walk(items: Any) -> None:
        current = ""
        for op, argument in items:
            name = str(op)
            if name == "LITERAL":
                current += chr(argument)
                continue
            if len(current) >= 2:
                runs.append(current)
            current = ""
            if name in ("SUBPATTERN",):
                walk(argument[-1])
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(argument[2])
            elif name == "BRANCH":
                for branch in argument[1]:
                    walk(branch)
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(argument[1])
            elif name == "ATOMIC_GROUP":
                walk(argument)
        if len(current) >= 2:
            runs.append(current)

    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    walk(parser.parse(source, pattern.flags & ~re.ASCII if isinstance(pattern.pattern, str) else 0))
    return sorted(set(runs), key=lambda run: (-len(run), run))[:8]


def _strings(pattern: re.Pattern[Any]) -> list[tuple[str, str]]:
    units = list(_GENERIC_UNITS)
    for literal in _literals(pattern):
        units += [literal, literal + "A0-"]
    cases = [(f"({unit!r})*", (unit * (SIZE // len(unit) + 1))[:SIZE]) for unit in units]
    for literal in _literals(pattern)[:3]:
        cases.append((f"{literal!r}+A0*", (literal + "A0" * SIZE)[:SIZE]))
    return cases


def main() -> None:
    patterns = _patterns()
    print(json.dumps({"patterns": len(patterns)}), flush=True)
    for name, pattern in patterns.items():
        for label, text in _strings(pattern):
            subject: Any = text.encode("utf-8")[:SIZE] if isinstance(pattern.pattern, bytes) else text
            started = time.process_time()
            for _ in pattern.finditer(subject):
                pass
            elapsed = time.process_time() - started
            print(json.dumps({"pattern": name, "input": label, "seconds": elapsed}), flush=True)
    for unit in (*_GENERIC_UNITS, "ghp_", "-----BEGIN PRIVATE KEY-----", "Bearer ", "password=", "sk-"):
        text = (unit * (SIZE // len(unit) + 1))[:SIZE]
        started = time.process_time()
        redact_text(text, limit=SIZE)
        elapsed = time.process_time() - started
        print(
            json.dumps(
                {"pattern": "redact_text (whole chokepoint)", "input": f"({unit!r})*", "seconds": elapsed}
            )
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
