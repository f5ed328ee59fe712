"""Which clusters a fleet scan reads: the contexts named on the command line, or every context.

Contexts come from the same kubeconfig kubectl would read (the flag, then $KUBECONFIG, then
~/.kube/config), so `--all-contexts` lists exactly what `kubectl config get-contexts` lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubegap.checker.live.kubeconfig import context_names, resolve_kubeconfig
from kubegap.errors import KubeconfigError, UsageError


def kubeconfig_contexts(kubeconfig: str | None) -> list[str]:
    """Every context name in the kubeconfig, in file order; a one-line error when there is none."""
    path = resolve_kubeconfig(kubeconfig)
    if path is None:
        raise KubeconfigError(
            "--all-contexts needs a kubeconfig (KUBECONFIG is unset and ~/.kube/config does not exist)"
        )
    return context_names(path)[0]  # read bounded; a broken file is one KubeconfigError line


def resolve_contexts(kubeconfig: str | None, contexts: Sequence[str], all_contexts: bool) -> list[str]:
    """The contexts to scan, each once, in the order given (named ones first when both are used).

    A named context that the kubeconfig lacks is kept: the scan reports that cluster as an error and
    still scans the others, the same as a cluster that does not answer.
    """
    chosen = [name for name in contexts if name]
    if all_contexts:
        chosen += kubeconfig_contexts(kubeconfig)
    unique = list(dict.fromkeys(chosen))
    if not unique:
        raise UsageError("a fleet scan needs --context NAME (repeatable) or --all-contexts")
    return unique
