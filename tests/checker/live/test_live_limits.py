"""The scan budget: fixed by --scan-timeout, else sized to the cluster and never past its ceiling."""

from __future__ import annotations

from kubegap.agents.mcp_scans import MCP_SCAN_CEILING, live_options
from kubegap.checker.live.limits import AUTO_BASE_SECONDS, AUTO_CEILING_SECONDS, ScanClock


def test_the_automatic_budget_grows_with_lists_and_announced_objects() -> None:
    clock = ScanClock()
    assert clock.budget == AUTO_BASE_SECONDS
    clock.plan(15)
    clock.announce(150_000)
    assert clock.budget == AUTO_BASE_SECONDS + 2 * 15 + 150
    assert "sized to 15 lists and 150,000 announced objects" in clock.describe()


def test_a_server_announcing_a_billion_objects_cannot_stretch_the_budget() -> None:
    clock = ScanClock()
    clock.announce(1_000_000_000)
    assert clock.budget == AUTO_CEILING_SECONDS
    assert ScanClock(ceiling=280).budget == AUTO_BASE_SECONDS
    capped = ScanClock(ceiling=280)
    capped.announce(1_000_000_000)
    assert capped.budget == 280


def test_a_fixed_budget_is_what_was_asked() -> None:
    clock = ScanClock(fixed=7.0)
    clock.plan(100)
    clock.announce(10**9)
    assert clock.budget == 7.0 and clock.describe() == "7 s (--scan-timeout)"
    assert 6.5 < clock.remaining() <= 7.0 and not clock.expired()
    assert ScanClock(fixed=0.0).expired()


def test_mcp_scans_end_before_a_300_second_tool_timeout_unless_told_otherwise() -> None:
    assert live_options(None, None)["limits"].scan_ceiling == MCP_SCAN_CEILING < 300
    assert live_options(None, None, 900)["limits"].scan_timeout == 900.0
