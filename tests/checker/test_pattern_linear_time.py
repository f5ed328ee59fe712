"""Every regular expression in kubegap runs in linear time: 1 MB adversarial strings, each within budget.

A quadratic pattern (a greedy run tried from every position of a long run of letters) once made one
`explain_check` call with a 200,000-character id take 58 seconds. `pattern_timing.py` finds every
compiled pattern in the package and runs each on 1 MB strings built to provoke backtracking: long
runs of one character, repeated separators, and repeats of the pattern's own literal prefixes. It
runs in a child process so a pattern that turned quadratic ends as a failure at the timeout, not a
hung suite. The budget is generous (linear patterns take milliseconds to a few tenths of a second
on 1 MB; a quadratic one takes hours), so a slow shared machine does not make it flaky.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kubegap.redaction import REDACTED, redact_text

TIMING_SCRIPT = Path(__file__).with_name("pattern_timing.py")
SECONDS_PER_MEGABYTE = 3.0
WHOLE_RUN_TIMEOUT = 900


@pytest.fixture(scope="module")
def timings() -> list[dict[str, object]]:
    try:
        completed = subprocess.run(
            [sys.executable, str(TIMING_SCRIPT)],
            capture_output=True,
            text=True,
            timeout=WHOLE_RUN_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        output = error.stdout.decode() if isinstance(error.stdout, bytes) else (error.stdout or "")
        last = output.strip().splitlines()[-1:] or ["nothing"]
        pytest.fail(f"pattern timing did not finish in {WHOLE_RUN_TIMEOUT} s; last run: {last[0]}")
    assert completed.returncode == 0, completed.stderr[-2000:]
    return [json.loads(line) for line in completed.stdout.splitlines()]


def test_every_pattern_is_linear_on_one_megabyte_adversarial_strings(
    timings: list[dict[str, object]],
) -> None:
    header, runs = timings[0], timings[1:]
    assert isinstance(header["patterns"], int) and header["patterns"] >= 60  # found, not listed
    slow = [run for run in runs if float(str(run["seconds"])) > SECONDS_PER_MEGABYTE]
    assert slow == []
    assert len(runs) >= 1000
    assert any(run["pattern"] == "redact_text (whole chokepoint)" for run in runs)


def test_the_quadratic_shape_is_what_the_timing_would_catch() -> None:
    """Guard: the old URL-password pattern (no look-behind) is quadratic; on 20,000 letters it already
    costs far more than the linear one does on 1 MB, so the budget above separates the two shapes."""
    import re
    import time

    old = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@\"']+):([^/\s@\"']+)@")
    started = time.perf_counter()
    old.search("a" * 20_000)
    quadratic = time.perf_counter() - started
    from kubegap.redaction.detectors import URL_PASSWORD

    started = time.perf_counter()
    URL_PASSWORD.search("a" * 20_000)
    linear = time.perf_counter() - started
    assert quadratic > 10 * linear


def test_a_long_id_is_redacted_quickly_and_a_token_across_the_cut_is_still_seen() -> None:
    token = "ghp_" + "Ab1" * 12
    text = "x" * 3985 + " " + token + " tail" + "y" * 200_000
    shown = redact_text(text)
    assert token[:8] not in shown and REDACTED in shown
    assert shown.endswith(f"(+{len(text) - shown.index('…'):,} characters)")
