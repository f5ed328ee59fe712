"""Values a template engine was meant to fill: `{{ .Values.x }}`, `${VAR}`, `<YOUR ACR>`, `__NUM_NODES__`.

A manifest copied from a chart, a recipe or a tutorial often still holds them. Read as real values they
mislead twice: `nvidia.com/gpu: "{{ .Values.gpus }}"` reads as zero GPUs ("no GPU workloads") and
`replicas: ${REPLICAS}` as one replica. The workload model records every such field by its path, and
checks that touch one say `unknown: unrendered template value (field)` instead of passing or skipping.
"""

from __future__ import annotations

import re
from typing import Any

# Every pattern runs in linear time on hostile input (tests/checker/test_pattern_linear_time.py): no
# unbounded run on both sides of a literal, no lazy `.*?` waiting for a closing brace.
_PATTERNS = (
    re.compile(r"\{\{"),  # Helm / Go templates: an opening {{ is enough
    re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_.:-]*\}"),  # ${VAR}, envsubst and Terraform
    re.compile(r"^\$[A-Za-z_][A-Za-z0-9_]*$"),  # a whole value that is $VAR
    re.compile(r"<[A-Za-z][A-Za-z0-9 _./-]*>"),  # <PLACEHOLDER>, <YOUR ACR>, <your-bucket>
    re.compile(r"__[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*__"),  # __NUM_NODES__
    re.compile(r"placeholder", re.IGNORECASE),  # IMG_PLACEHOLDER, model-placeholder
    re.compile(r"^\s*(?:CHANGE_?ME|REPLACE_?ME|TODO|TBD|FIXME)\s*$", re.IGNORECASE),
)


def is_placeholder(value: Any) -> bool:
    """A string a template engine or a person was meant to replace before applying the manifest."""
    if not isinstance(value, str):
        return False
    return any(pattern.search(value) for pattern in _PATTERNS)


def is_unrendered(value: Any) -> bool:
    """A field meant to hold a value that holds a placeholder, or nothing at all (`replicas:` empty)."""
    if isinstance(value, str):
        return value.strip() == "" or is_placeholder(value)
    return False


def unrendered_quantity(value: Any) -> bool:
    """A count or quantity field (replicas, a GPU limit) whose value is missing in the text or templated."""
    return is_unrendered(value)
