"""The MCP side of the redaction chokepoint: one server middleware that redacts every result leaving.

It wraps `tools/call`, `resources/read`, `prompts/get` and `completion/complete` after the SDK has
shaped the wire result, so tool output, the JSON text copy of structured output, error texts (ours
and the SDK's, which echo arguments), resources and prompts all pass `kubegap.redaction`. No tool
has to remember to redact a field.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

REDACTED_METHODS = frozenset({"tools/call", "resources/read", "prompts/get", "completion/complete"})
LONG_TEXT = 200_000  # a Markdown resource is one string; it is redacted whole, not cut at 4,000


def redact_wire(result: Any) -> Any:
    """A wire result with every string redacted; JSON texts are redacted as data, then re-serialised."""
    from kubegap.redaction import redact_value

    if not isinstance(result, dict):
        return redact_value(result)
    redacted: dict[str, Any] = {}
    for key, value in result.items():
        if key == "text" and isinstance(value, str):
            redacted[key] = redact_long_text(value)
        elif key == "structuredContent":
            redacted[key] = redact_value(value)  # by key name and by shape, like every report
        elif isinstance(value, dict):
            redacted[key] = redact_wire(value)
        elif isinstance(value, list):
            redacted[key] = [redact_wire(item) for item in value]
        else:
            redacted[key] = redact_value(value)
    return redacted


def redact_long_text(text: str) -> str:
    """Text content: a JSON document (structured output's copy) by value, anything else as free text."""
    from kubegap.redaction import redact_text, redact_value

    stripped = text.lstrip()
    if stripped[:1] in {"{", "["}:
        try:
            parsed = json.loads(text)
        except ValueError:
            pass
        else:
            return json.dumps(redact_value(parsed), indent=2, ensure_ascii=False)
    return redact_text(text, limit=LONG_TEXT)


class RedactingMiddleware:
    """Server middleware: results of data-bearing methods and their protocol errors are redacted."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method not in REDACTED_METHODS:
            return await call_next(ctx)
        try:
            result = await call_next(ctx)
        except MCPError as error:
            from kubegap.redaction import redact_text

            error.error.message = redact_text(error.error.message)
            if error.error.data is not None:
                error.error.data = redact_wire(error.error.data)
            raise
        if isinstance(result, BaseModel):
            result = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        return redact_wire(result)
