"""Open the library in the background once the host has finished the handshake.

A host starts `kubegap mcp`, waits for the `initialize` answer, says `notifications/initialized`,
and then usually waits for a person or a model before its first tool call. The first library call
used to pay for the imports and for opening the index (about twice a later call); doing that work
right after the handshake, in a daemon thread, hides it in that wait. It starts only after
`initialize` was answered, so the answer itself stays as fast as importing the SDK allows (a
warm-up that began at import made `initialize` slower). The thread goes through the same locks as
the tools (`ensure_backends`, then the library's own), so a tool call that arrives first simply
waits for the same work instead of doing it twice.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

logger = logging.getLogger("kubegap.mcp")
INITIALIZED = "notifications/initialized"


class WarmUpMiddleware:
    """Starts `warm_up` in a daemon thread when the host confirms the handshake, once per process."""

    def __init__(self, warm_up: Callable[[], None]) -> None:
        self._warm_up = warm_up
        self._started = threading.Event()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == INITIALIZED and not self._started.is_set():
            self._started.set()
            threading.Thread(target=self._run, name="kubegap-warm-up", daemon=True).start()
        return result

    def _run(self) -> None:
        try:
            self._warm_up()
        except Exception:  # a broken install shows up in the tool call that needs it, as before
            logger.debug("warm-up failed", exc_info=True)
