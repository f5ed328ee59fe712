"""Placement rules the coverage checks depend on: selectors, required affinity, taints and tolerations."""

from __future__ import annotations

from kubegap.checker.extract import placement_blockers, selector_matches

LABELS = {"nvidia.com/gpu.present": "true", "pool": "h100", "rank": "5"}
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}


def test_label_selectors_cover_every_operator() -> None:
    assert selector_matches(LABELS, None)
    assert selector_matches(LABELS, {"matchLabels": {"pool": "h100"}})
    assert not selector_matches(LABELS, {"matchLabels": {"pool": "a100"}})
    expressions = [
        ({"key": "pool", "operator": "In", "values": ["h100", "b200"]}, True),
        ({"key": "pool", "operator": "NotIn", "values": ["h100"]}, False),
        ({"key": "missing", "operator": "NotIn", "values": ["x"]}, True),
        ({"key": "pool", "operator": "Exists"}, True),
        ({"key": "pool", "operator": "DoesNotExist"}, False),
        ({"key": "rank", "operator": "Gt", "values": ["3"]}, True),
        ({"key": "rank", "operator": "Lt", "values": ["3"]}, False),
        ({"key": "pool", "operator": "Gt", "values": ["3"]}, False),
        ({"key": "pool", "operator": "Bogus"}, False),
    ]
    for expression, expected in expressions:
        assert selector_matches(LABELS, {"matchExpressions": [expression]}) is expected, expression


def test_untolerated_taint_blocks_and_a_toleration_lifts_it() -> None:
    bare = {"containers": [{"name": "c"}]}
    assert placement_blockers(bare, LABELS, [GPU_TAINT]) == [
        "untolerated taint nvidia.com/gpu=present:NoSchedule"
    ]
    tolerating = {**bare, "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]}
    assert placement_blockers(tolerating, LABELS, [GPU_TAINT]) == []
    everything = {**bare, "tolerations": [{"operator": "Exists"}]}
    assert placement_blockers(everything, LABELS, [GPU_TAINT, {"key": "x", "effect": "NoExecute"}]) == []
    wrong_effect = {
        **bare,
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}],
    }
    assert placement_blockers(wrong_effect, LABELS, [GPU_TAINT])
    assert placement_blockers(bare, LABELS, [{"key": "soft", "effect": "PreferNoSchedule"}]) == []


def test_daemonsets_tolerate_the_node_lifecycle_taints() -> None:
    unreachable = {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}
    assert placement_blockers({}, LABELS, [unreachable], daemonset=True) == []
    assert placement_blockers({}, LABELS, [unreachable], daemonset=False)


def test_node_selector_and_required_affinity_must_both_match() -> None:
    spec = {
        "nodeSelector": {"nvidia.com/gpu.present": "true"},
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["a100"]}]},
                        {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["h100"]}]},
                    ]
                }
            }
        },
    }
    assert placement_blockers(spec, LABELS, []) == []
    assert placement_blockers(spec, {"pool": "h100"}, []) == ["nodeSelector does not match"]
    assert placement_blockers(spec, {**LABELS, "pool": "l4"}, []) == ["required node affinity does not match"]
