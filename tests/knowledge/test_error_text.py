"""The one error-text matcher: spellings of a code, separators, case, width and log noise all resolve
to the same catalog entry; a code is the first number after its keyword; the API is one function."""

from __future__ import annotations

import pytest

from kubegap.knowledge import load_knowledge
from kubegap.knowledge.error_text import NOISE, match_errors, occurs_in, occurs_loosely, words

CATALOG = load_knowledge().errors


def _ids(text: str) -> list[str]:
    return [match.entry.id for match in match_errors(text, CATALOG)]


@pytest.mark.parametrize(
    "text",
    [
        "XID79",
        "xid-79",
        "Xid 79:",
        "xid_79",
        "XID 79",
        "ｘｉｄ　７９",  # full-width, as an IME types it
        "Xid 79가 떴어요",
        "kernel: [ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python,"
        " GPU has fallen off the bus.",
        "Mar 21 04:12:01 node12 kernel: NVRM: Xid (PCI:0000:b1:00.0): 79",
    ],
)
def test_every_spelling_of_xid_79_finds_it(text: str) -> None:
    assert _ids(text)[0] == "xid-79", text


@pytest.mark.parametrize(
    "text",
    [
        # NCCL 2.x before 2.12: peer address and port in the middle of the sentence
        "node-7:3321:3390 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<55004> with error 12, "
        "opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2",
        "Got completion from peer 10.1.2.3<1234> with error 12",
        # later releases: a status field, then the verbs status text before the number
        "NCCL WARN NET/IB: Got completion from peer 192.168.0.17<43517> with status=12 opcode=0 len=0 "
        "vendor err 129 (Send)",
        "NET/IB: Got completion from peer [fe80::1]<2000> with status=transport retry counter exceeded(12) "
        "opcode=SEND(0) vendor_err=129 hca mlx5_0",
        "NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 32655, vendor err 129",
    ],
)
def test_nccl_completion_lines_find_the_ib_entry(text: str) -> None:
    assert _ids(text)[0] == "nccl-ib-completion-error", text


def test_a_code_is_the_first_number_after_its_keyword() -> None:
    """dmesg puts the PID after the code: `Xid (…): 79, pid=13` is Xid 79, never Xid 13."""
    assert _ids("NVRM: Xid (PCI:0000:3b:00): 79, pid=13, name=python") == ["xid-79"]
    assert _ids("NVRM: Xid (PCI:0000:3b:00): 13, pid=79") == ["xid-13"]
    assert occurs_loosely(["xid", "13"], words("xid pid 13"))  # words between, no number first
    assert not occurs_loosely(["xid", "13"], words("xid 79 13"))


def test_machine_values_are_one_noise_token_each() -> None:
    assert words("at 2024-03-05T10:22:01.123456Z from 10.0.0.2:8080 on 0000:3b:00.0") == [
        "at",
        NOISE,
        "from",
        NOISE,
        "on",
        NOISE,
    ]
    assert words(
        "GPU-5a3b1c2d-1111-2222-3333-444455556666 ptr 0x7f3a12 mac aa:bb:cc:dd:ee:ff pid 123456"
    ) == [
        "gpu",
        NOISE,
        "ptr",
        NOISE,
        "mac",
        NOISE,
        "pid",
        NOISE,
    ]
    # a signature that quotes one machine's address matches another machine's line
    assert occurs_in(words("Xid (PCI:0000:10:1c): 63"), words("NVRM: Xid (PCI:0000:b3:00): 63, pid=99"))


def test_short_numbers_and_words_stay_literal() -> None:
    assert words("error 12, Xid=69 on H100 ranks 0-7") == [
        "error",
        "12",
        "xid",
        "69",
        "on",
        "h",
        "100",
        "ranks",
        "0",
        "7",
    ]
    assert _ids("Xid 7") == [] and _ids("Xid 790") == []


def test_matches_come_best_first_and_once_per_entry() -> None:
    found = match_errors("NVRM: Xid 79 GPU has fallen off the bus, Xid 79 again", CATALOG)
    assert [match.entry.id for match in found] == ["xid-79"]
    assert found[0].pattern == "GPU has fallen off the bus"  # the longest pattern that matched
    assert match_errors("", CATALOG) == [] and match_errors("the printer is on fire", CATALOG) == []
