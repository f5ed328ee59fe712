"""The MCP server object and the one way a tool is registered on it: read-only annotations, a one-line
docstring description, structured output, and KubegapError turned into a one-sentence tool error.

The middleware is installed here, so every tool, resource and prompt registered on `server` has its
results redacted without knowing it, and every tool call has its arguments checked and its result
held to the output cap (`mcp_arguments`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import threading
from collections.abc import Callable
from typing import Annotated, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from kubegap import __version__
from kubegap.agents import mcp_arguments
from kubegap.agents.mcp_arguments import BoundedToolsMiddleware
from kubegap.agents.mcp_language import server_lang
from kubegap.agents.mcp_redaction import RedactingMiddleware
from kubegap.agents.mcp_warmup import WarmUpMiddleware
from kubegap.cli_support import LANG_ENV
from kubegap.errors import KubegapError
from kubegap.unexpected import describe

logger = logging.getLogger("kubegap.mcp")

INSTRUCTIONS = """\
kubegap finds the gaps in a Kubernetes GPU/AI cluster that let known public AI-infrastructure outages \
happen (GPU health monitoring, NCCL hangs, fleet-wide upgrades, API-server overload, DNS), and \
searches a bilingual (Korean/English) library of those public incident reports.
It never writes to a cluster: it only sends GET requests, never reads Secrets, and redacts \
secret-looking values from every result. scan_cluster reads only the user's own kubeconfig (or the \
files the server was started with): leave its kubeconfig argument out and choose a context.
Start with scan_cluster for the current kubeconfig context (or scan_files for snapshot or manifest \
files); read the summary, then explain_check and get_findings for the checks that failed. For a \
pasted error line use find_incidents_by_error, and explain_error for what an error code or message \
(Xid 79, an NCCL watchdog timeout) means and the usual action; for a symptom or topic use \
search_incidents, then get_incident. list_checks shows everything kubegap can check."""

READ_ONLY = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False
)
READS_CLUSTER = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=True
)

# Every argument is bounded in length and type here, in the schema agents see; mcp_arguments checks
# calls against it before any tool code runs.
ID_CHARS = 200
PATH_CHARS = 4096
Lang = Annotated[
    Literal["en", "ko"] | None,
    Field(
        description="language of titles and text: en or ko; default the server's language (kubegap mcp "
        f"--lang, else ${LANG_ENV}, else the locale, else en)"
    ),
]
Severity = Literal["critical", "high", "medium", "low", "info"]
Identifier = Annotated[str, Field(max_length=ID_CHARS)]
CheckIds = Annotated[
    list[Identifier] | None,
    Field(max_length=100, description="run only these check ids (see list_checks); default all"),
]
MinSeverity = Annotated[
    Severity | None, Field(description="leave out findings below this severity; default none")
]
FacetFilter = Annotated[
    list[Identifier] | None, Field(max_length=20, description="term ids; several are OR-ed")
]


def _warm_up() -> None:
    """What the first tool calls would do: the tools' imports and argument models, the library index and
    a first search."""
    ensure_backends()
    mcp_arguments.prepare()
    from kubegap.agents.mcp_library import search_incidents
    from kubegap.agents.mcp_redaction import redact_wire

    # One search down the tool's whole path (library, result model, links, redaction): what is
    # imported or built on first use is then ready for the host's first call.
    found = search_incidents("GPU memory", {}, "en", 1)
    redact_wire(found.model_dump(by_alias=True, mode="json", exclude_none=True))


server: MCPServer = MCPServer(
    "kubegap",
    title="kubegap",
    version=__version__,
    instructions=INSTRUCTIONS,
    log_level="WARNING",
    middleware=[RedactingMiddleware(), BoundedToolsMiddleware(), WarmUpMiddleware(_warm_up)],
)

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


# Modules the tools import lazily (so `initialize` stays fast). Tools run in worker threads, and two
# threads importing this package's modules for the first time at once can trip Python's import-lock
# deadlock detection (`_DeadlockError`), so the first imports happen once, under one lock.
_BACKENDS = (
    "kubegap.knowledge",
    "kubegap.library.library",
    "kubegap.library.query",
    "kubegap.checker.scanning",
    "kubegap.checker.registry",
    "kubegap.checker.runner",
    "kubegap.checker.sources",
    "kubegap.checker.reports",
    "kubegap.checker.exemptions",
    "kubegap.checker.live.rbac",
    "kubegap.redaction",
)
_backends_lock = threading.Lock()
_backends_ready = False


def ensure_backends() -> None:
    """Import the tools' modules once, one thread at a time (about 0.2 s, paid by the first call)."""
    global _backends_ready
    if _backends_ready:
        return
    with _backends_lock:
        if not _backends_ready:
            for name in _BACKENDS:
                importlib.import_module(name)
            _backends_ready = True


def _one_sentence_errors(function: Callable[_Params, _Result]) -> Callable[_Params, _Result]:
    """KubegapError -> ToolError(one line); anything unexpected -> a short ToolError and one log line.

    A call without `lang` gets the server's language, and so does its error line. The log line names
    the exception type and where it was raised, redacted, never its traceback: the message of an
    unexpected exception may quote what it choked on (an HTTP header with a token).
    """
    signature = inspect.signature(function)
    speaks = "lang" in signature.parameters

    @functools.wraps(function)
    def wrapper(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        lang = server_lang()
        if speaks:
            bound = signature.bind_partial(*args, **kwargs)
            lang = server_lang(bound.arguments.get("lang"))
            bound.arguments["lang"] = lang
            args, kwargs = bound.args, bound.kwargs  # type: ignore[assignment]
        try:
            ensure_backends()
            return function(*args, **kwargs)
        except ToolError:
            raise
        except KubegapError as error:
            raise ToolError(error.one_line(lang)) from None
        except Exception as error:
            logger.error("tool %s failed: %s", function.__name__, describe(error))
            raise ToolError(
                f"kubegap failed unexpectedly ({type(error).__name__}); the server's stderr log has details"
            ) from None

    return wrapper


def tool(
    title: str, annotations: ToolAnnotations = READ_ONLY
) -> Callable[[Callable[_Params, _Result]], Callable[_Params, _Result]]:
    def register(function: Callable[_Params, _Result]) -> Callable[_Params, _Result]:
        wrapped = _one_sentence_errors(function)
        mcp_arguments.register(function.__name__, function)
        description = " ".join((function.__doc__ or "").split())  # one paragraph, no source indentation
        server.tool(title=title, description=description, annotations=annotations, structured_output=True)(
            wrapped
        )
        return wrapped

    return register
