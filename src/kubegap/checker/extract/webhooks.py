"""Admission webhooks as checks need them: who serves each one, what it intercepts, what happens on error.

A Validating- or MutatingWebhookConfiguration holds a list of webhooks; each one has its own failure
policy, backend (an in-cluster Service or an external URL), selectors and rules. Checks judge webhooks
one by one, so this view flattens the configurations into one entry per webhook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubegap.checker.extract._fields import dig, items, mapping, name_of, ref, strings
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.scheduling import selector_matches
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import Snapshot

WEBHOOK_KINDS = (
    "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
    "admissionregistration.k8s.io/MutatingWebhookConfiguration",
)
# Every namespace carries this label since Kubernetes 1.21, set by the API server itself.
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"


@dataclass(frozen=True)
class WebhookView:
    config: ObjectRef  # the configuration object the webhook belongs to
    name: str  # the webhook's own name inside the configuration
    failure_policy: str  # 'Fail' or 'Ignore'; admissionregistration/v1 defaults to Fail
    service_namespace: str  # '' when the webhook calls a URL instead of a Service
    service_name: str
    url: str
    namespace_selector: dict[str, Any]
    object_selector: dict[str, Any]
    rules: list[dict[str, Any]]

    @property
    def fails_closed(self) -> bool:
        """An error or timeout calling the backend rejects the request."""
        return self.failure_policy != "Ignore"

    @property
    def service(self) -> str:
        return f"{self.service_namespace}/{self.service_name}" if self.service_name else ""

    def covers_namespace(self, labels: dict[str, str]) -> bool:
        """The namespaceSelector picks a namespace with these labels (an empty selector picks all)."""
        return selector_matches(labels, self.namespace_selector)

    @property
    def covers_unlabelled_objects(self) -> bool:
        """The objectSelector lets through objects that carry no opt-in label (system pods, ConfigMaps)."""
        return selector_matches({}, self.object_selector)

    @property
    def intercepts_core_objects(self) -> bool:
        """A rule on built-in API groups ('' , apps, coordination.k8s.io, '*'...) in namespaced scope.

        Webhooks that only see their own custom resources (kubeflow.org, ray.io) cannot block the
        pods, ConfigMaps and leases that kube-system and node agents write.
        """
        return any(_is_core_rule(rule) for rule in self.rules)


def _is_core_rule(rule: dict[str, Any]) -> bool:
    if str(rule.get("scope") or "*") == "Cluster":
        return False
    groups = strings(rule.get("apiGroups")) or [""]
    return any(group in ("", "*") or "." not in group or group.endswith(".k8s.io") for group in groups)


def _views(kind: str, config: dict[str, Any]) -> list[WebhookView]:
    found = []
    for hook in items(config.get("webhooks")):
        client = mapping(hook.get("clientConfig"))
        service = mapping(client.get("service"))
        found.append(
            WebhookView(
                config=ref(config),
                name=str(hook.get("name") or name_of(config)),
                failure_policy=str(hook.get("failurePolicy") or "Fail"),
                service_namespace=str(service.get("namespace") or ""),
                service_name=str(service.get("name") or ""),
                url=str(client.get("url") or ""),
                namespace_selector=mapping(hook.get("namespaceSelector")),
                object_selector=mapping(hook.get("objectSelector")),
                rules=items(hook.get("rules")),
            )
        )
    return found


def webhooks(snapshot: Snapshot) -> list[WebhookView]:
    """Every webhook of every Validating- and MutatingWebhookConfiguration, built once per snapshot."""

    def build(snap: Snapshot) -> list[WebhookView]:
        return [view for kind in WEBHOOK_KINDS for config in snap.of(kind) for view in _views(kind, config)]

    return memo(snapshot, "webhooks", build)


def namespace_labels(snapshot: Snapshot, name: str) -> dict[str, str]:
    """Labels of a namespace as the API server sees them; the name label alone when it was not read."""
    for namespace in snapshot.of("Namespace"):
        if name_of(namespace) == name:
            labels = {str(k): str(v) for k, v in mapping(dig(namespace, "metadata", "labels")).items()}
            return {NAMESPACE_NAME_LABEL: name, **labels}
    return {NAMESPACE_NAME_LABEL: name}
