"""Symptoms now: what the cluster is already showing, matched to the error catalog and the incidents.

Read-only signals (Events in a time window, Node conditions, taints and allocatable GPUs, pod and
container states, Job conditions) go through the error catalog's one matcher and are grouped by
signature and place with distinct counts and first/last seen (`report.py`). Every face calls
`collect_symptoms`: scan reports, `kubegap symptoms`, MCP `get_symptoms`, the web cluster page and
the exporter.
"""

from kubegap.checker.symptoms.report import SIGNAL_KINDS, SymptomGroup, SymptomReport, collect_symptoms

__all__ = ["SIGNAL_KINDS", "SymptomGroup", "SymptomReport", "collect_symptoms"]
