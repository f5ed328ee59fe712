"""Cases of the newer checks that fixtures named by outcome cannot express, and the shared services view."""

from __future__ import annotations

from kubegap.checker.finding import Status
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.workload import workloads
from kubegap.checker.workload.services import pod_labels, published, selected_templates, service_for_host


def _snapshot(*objects: dict, mode: str = "manifests") -> Snapshot:
    snapshot = Snapshot(mode=mode)
    for obj in objects:
        snapshot.add(obj)
    return snapshot


_OLD_DEPLOYMENT = {
    "apiVersion": "apps/v1beta1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}},
}


def test_removed_api_version_is_not_applicable_on_objects_an_api_server_returned() -> None:
    check = get_check("removed-api-version")
    live_snapshot = _snapshot(_OLD_DEPLOYMENT, mode="live")
    for kind in check.meta.optional:
        live_snapshot.coverage.setdefault(kind, KindCoverage(Coverage.absent))
    live = run_checks(live_snapshot, checks=[check]).findings
    assert [finding.status for finding in live] == [Status.not_applicable]
    files = run_checks(_snapshot(_OLD_DEPLOYMENT), checks=[check]).findings
    assert [finding.status for finding in files] == [Status.failed]
    assert "apps/v1" in files[0].message


_RAY = {
    "apiVersion": "ray.io/v1",
    "kind": "RayCluster",
    "metadata": {"name": "fleet", "namespace": "ray"},
    "spec": {
        "headGroupSpec": {
            "template": {"metadata": {"labels": {"model": "qwen"}}, "spec": {"containers": [{"name": "h"}]}}
        },
        "workerGroupSpecs": [
            {
                "groupName": "gpu",
                "template": {
                    "metadata": {"labels": {"model": "qwen"}},
                    "spec": {"containers": [{"name": "w"}]},
                },
            }
        ],
    },
}


def _service(selector: dict[str, str], kind: str = "ClusterIP", **metadata: object) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "svc", "namespace": "ray", **metadata},
        "spec": {"type": kind, "selector": selector, "ports": [{"port": 8000}]},
    }


def test_pod_labels_join_template_labels_and_the_operators_own() -> None:
    snapshot = _snapshot(_RAY)
    [cluster] = workloads(snapshot)
    head, worker = cluster.templates
    assert pod_labels(cluster, head) == {
        "model": "qwen",
        "ray.io/node-type": "head",
        "ray.io/is-ray-node": "yes",
        "ray.io/cluster": "fleet",
    }
    assert pod_labels(cluster, worker)["ray.io/group"] == "gpu"


def test_a_selector_shared_by_head_and_workers_selects_both_and_a_node_type_narrows_it() -> None:
    shared = _service({"model": "qwen"})
    head_only = _service({"model": "qwen", "ray.io/node-type": "head"})
    assert [t.group for _, t in selected_templates(_snapshot(_RAY), shared)] == ["head", "gpu"]
    assert [t.group for _, t in selected_templates(_snapshot(_RAY), head_only)] == ["head"]


def test_a_host_name_resolves_to_its_service_in_every_dns_form() -> None:
    snapshot = _snapshot(_service({"app": "etcd"}))
    for host in (
        "svc",
        "svc:2379",
        "svc.ray",
        "svc.ray.svc.cluster.local:2379",
        "http://svc:2379",
        "svc-0.svc",
    ):
        assert service_for_host(snapshot, host, "ray") is not None, host
    assert service_for_host(snapshot, "other:2379", "ray") is None
    assert service_for_host(snapshot, "svc", "elsewhere") is None


def test_internal_load_balancers_and_cluster_ip_are_not_published() -> None:
    internal = _service({}, "LoadBalancer", annotations={"networking.gke.io/load-balancer-type": "Internal"})
    assert published(_snapshot(internal), internal).kind == ""
    assert published(_snapshot(_service({})), _service({})).kind == ""
    external = _service({}, "LoadBalancer")
    assert published(_snapshot(external), external).kind == "LoadBalancer"
