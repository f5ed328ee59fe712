"""No record tracks its source word for word: each English sentence against stored source passages.

fixtures/source_phrases.yaml keeps short passages from the sources of some incidents. The thresholds
in source_overlap.py were set on the four records a review found copied ("tuned"); the other entries
("held-out") were never looked at while setting them. Both must come out clean, and the measure must
still catch a copy: the known copies from before the rewrite are pinned below as positives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from source_overlap import GRAM_SHARE, LONGEST_RUN, closest, compare

from kubegap.knowledge import load_knowledge

FIXTURE = Path(__file__).parent / "fixtures" / "source_phrases.yaml"
ENTRIES = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
KNOWLEDGE = load_knowledge()
RETIRED = {entry.id for entry in KNOWLEDGE.retired}
# Passages of records since taken out of the library stay only to calibrate the measure (KNOWN_COPIES).
LIVE_ENTRIES = [entry for entry in ENTRIES if entry["incident"] not in RETIRED]

# Sentences the records carried before they were rewritten in our own words (the review's finds plus
# the two the held-out check found), each with the source passage it tracked.
KNOWN_COPIES = [
    (
        "Mitigated the networking control-plane regression and validated that control-plane restarts do "
        "not interfere with the clusters' data plane.",
        "openai-2024-08-ingress-upgrade-network-control-plane",
    ),
    (
        "Added monitoring and alerting for networking control-plane issues.",
        "openai-2024-08-ingress-upgrade-network-control-plane",
    ),
    (
        "Starting at 10:40 AM PST on December 26, more than 90% of requests failed on ChatGPT, on Sora video "
        "generation and on many APIs (agents, realtime speech, batch, DALL-E);",
        "openai-2024-12-cloud-datacenter-power-failure",
    ),
    (
        "At 13:15 UTC a regular reroll of EKS nodes to apply security patches began, and a planned EC2 "
        "instance termination took down one CoreDNS pod.",
        "rebelmouse-2025-05-coredns-node-reroll",
    ),
    (
        "Added a sys.excepthook that prints the traceback and calls os._exit(1), skipping atexit, abort and "
        "destroy.",
        "pithtrain-2026-torchrun-shutdown-hang",
    ),
    (
        "The kernel reclaims files, sockets and CUDA IPC handles, so peers' NCCL operations error out "
        "quickly and torchrun brings down the rest.",
        "pithtrain-2026-torchrun-shutdown-hang",
    ),
    ("the second from an upgrade of the DNS cache system.", "openai-2024-12-04-global-lb-and-dns-cache"),
    (
        "Mitigated the second wave by temporarily switching to an alternative system.",
        "openai-2024-12-04-global-lb-and-dns-cache",
    ),
]


def _phrases(incident_id: str) -> list[str]:
    return next(entry["phrases"] for entry in ENTRIES if entry["incident"] == incident_id)


def test_every_passage_belongs_to_a_live_or_retired_record() -> None:
    live = {incident.id for incident in KNOWLEDGE.incidents}
    unknown = [entry["incident"] for entry in ENTRIES if entry["incident"] not in live | RETIRED]
    assert unknown == []
    calibration_only = {entry["incident"] for entry in ENTRIES if entry["incident"] in RETIRED}
    assert calibration_only <= {incident_id for _, incident_id in KNOWN_COPIES}, "drop passages nothing uses"


@pytest.mark.parametrize(
    "entry", LIVE_ENTRIES, ids=[f"{entry['split']}:{entry['incident']}" for entry in LIVE_ENTRIES]
)
def test_no_sentence_tracks_its_source(entry: dict) -> None:  # type: ignore[type-arg]
    incident = KNOWLEDGE.incident(entry["incident"])
    assert incident is not None, entry["incident"]
    assert any(source.url == entry["url"] for source in incident.sources)
    too_close = [
        (item.field, item.sentence, item.longest_run, item.gram_share)
        for item in closest(incident, entry["phrases"])
        if item.too_close
    ]
    assert too_close == [], "rewrite these in our own words"


@pytest.mark.parametrize(("sentence", "incident_id"), KNOWN_COPIES)
def test_the_measure_catches_the_known_copies(sentence: str, incident_id: str) -> None:
    worst = max(
        (compare("x", sentence, phrase) for phrase in _phrases(incident_id)),
        key=lambda item: (item.longest_run, item.gram_share),
    )
    assert worst.too_close, (worst.longest_run, worst.gram_share)


def test_a_paraphrase_that_keeps_the_facts_passes() -> None:
    source = "The affected CoreDNS pod was rescheduled to a new EC2 instance."
    ours = "Got the lost CoreDNS pod running again on a freshly started EC2 instance."
    result = compare("x", ours, source)
    assert not result.too_close and result.longest_run < LONGEST_RUN and result.gram_share < GRAM_SHARE


def test_both_splits_are_present() -> None:
    splits = {entry["split"] for entry in ENTRIES}
    assert splits == {"tuned", "held-out"}
    assert all(entry["phrases"] for entry in ENTRIES)
