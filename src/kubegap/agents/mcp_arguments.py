"""Tool arguments checked before a tool runs, and tool results held to the output cap.

An agent may send anything: a 200,000-character id, a string where a list belongs, an argument name
that does not exist. Every argument is bounded in length and type by its annotation (`max_length`
on strings and lists, ranges on numbers, literals for choices), and this middleware checks the
arguments against the same model the SDK would, before any tool code or pattern sees them, so the
answer is one sentence naming the argument instead of a multi-line validation dump that echoes the
value back. After the tool, an error is cut to one line of at most ERROR_CHARS, and a result over
OUTPUT_CHARS is replaced by a sentence saying how to ask for less, so no answer floods the agent.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata, func_metadata
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent
from pydantic import BaseModel, ValidationError

OUTPUT_CHARS = 100_000  # about 25,000 tokens, the default output limit of common MCP hosts
ERROR_CHARS = 500
URI_CHARS = 300
PROMPT_ARGUMENT_CHARS = 300
_NAME_CHARS = 60

_registered: dict[str, Callable[..., Any]] = {}
_models: dict[str, FuncMetadata] = {}
_models_lock = threading.Lock()


def register(name: str, function: Callable[..., Any]) -> None:
    """Remember a tool's function so its arguments can be checked against its own annotations."""
    _registered[name] = function


def check_arguments(tool: str, arguments: Any) -> str | None:
    """None when the arguments fit the tool's annotations, else one sentence naming the argument."""
    metadata = _metadata(tool)
    if metadata is None:
        return None  # an unknown tool: the SDK answers that itself
    if not isinstance(arguments, dict):
        return f"The arguments of {tool} must be an object of named arguments."
    fields = metadata.arg_model.model_fields
    known = [field.alias or name for name, field in fields.items()]
    unknown = [str(key) for key in arguments if key not in known]
    if unknown:
        return (
            f"The tool {tool} has no argument {_short(unknown[0])!r}; its arguments are {', '.join(known)}."
        )
    try:
        metadata.validate_arguments(arguments)
    except ValidationError as error:
        return _sentence(tool, error.errors(include_input=False, include_url=False)[0], fields)
    return None


def prepare() -> None:
    """Build every registered tool's argument model now (the warm-up does, so no call pays for it)."""
    for tool in list(_registered):
        _metadata(tool)


def _metadata(tool: str) -> FuncMetadata | None:
    function = _registered.get(tool)
    if function is None:
        return None
    with _models_lock:
        if tool not in _models:
            _models[tool] = func_metadata(function, structured_output=True)
        return _models[tool]


def _sentence(tool: str, error: Any, fields: dict[str, Any]) -> str:
    """One sentence from the first validation error: which argument, what it must be; never its value."""
    location = [part for part in error.get("loc", ())]
    name = str(location[0]) if location else "?"
    item = f" (item {int(location[1]) + 1})" if len(location) > 1 and isinstance(location[1], int) else ""
    argument = f"Argument {_short(name)!r}{item} of {tool}"
    kind = str(error.get("type", ""))
    context = error.get("ctx") or {}
    if kind == "missing":
        description = getattr(fields.get(name), "description", "") or ""
        hint = f" ({description})" if description else ""
        return f"The tool {tool} needs the argument {name!r}{hint}."
    if kind == "string_too_long":
        return f"{argument} is too long: at most {_number(context.get('max_length'))} characters."
    if kind == "too_long":
        return f"{argument} has too many items: at most {_number(context.get('max_length'))}."
    if kind == "too_short":
        return f"{argument} needs at least {_number(context.get('min_length', 1))} item(s)."
    if kind == "literal_error":
        return f"{argument} must be one of {context.get('expected', 'the listed values')}."
    if kind in ("less_than_equal", "less_than"):
        return f"{argument} must be at most {context.get('le', context.get('lt'))}."
    if kind in ("greater_than_equal", "greater_than"):
        return f"{argument} must be at least {context.get('ge', context.get('gt'))}."
    wanted = {
        "string_type": "a string",
        "list_type": "a list",
        "int_type": "a whole number",
        "int_parsing": "a whole number",
        "int_from_float": "a whole number",
        "float_type": "a number",
        "float_parsing": "a number",
        "bool_type": "true or false",
        "bool_parsing": "true or false",
    }.get(kind)
    if wanted:
        return f"{argument} must be {wanted}."
    return f"{argument} is not valid: {str(error.get('msg', 'wrong value')).rstrip('.').lower()}."


def _number(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else "the limit"


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _NAME_CHARS else f"{text[:_NAME_CHARS]}..."


def bounded_error(text: str) -> str:
    """An error on one line of at most ERROR_CHARS characters."""
    line = " ".join(str(text).split())
    return (
        line if len(line) <= ERROR_CHARS else f"{line[: ERROR_CHARS - 30]}... ({len(line):,} characters, cut)"
    )


def _error_result(text: str) -> CallToolResult:
    line = bounded_error(text)
    if not line.endswith((".", "?", "!", ")")):
        line += "."
    return CallToolResult(content=[TextContent(type="text", text=line)], is_error=True)


def _size(result: dict[str, Any]) -> int:
    """The characters an agent would read: the longer of the text content and the structured copy."""
    texts = sum(
        len(str(item.get("text", ""))) for item in result.get("content") or [] if isinstance(item, dict)
    )
    structured = result.get("structuredContent")
    copied = len(json.dumps(structured, ensure_ascii=False)) if structured is not None else 0
    return max(texts, copied)


def _check_request(method: str, params: Any) -> str | None:
    """resources/read and prompts/get are bounded too: a URI or a prompt argument never reaches a lookup
    or a pattern (nor an error message that echoes it) when it is longer than any real one."""
    if method == "resources/read":
        uri = str(params.get("uri", ""))
        if len(uri) > URI_CHARS:
            return f"The resource URI is too long: at most {URI_CHARS} characters."
    if method == "prompts/get":
        for name, value in (params.get("arguments") or {}).items():
            if len(str(value)) > PROMPT_ARGUMENT_CHARS:
                limit = PROMPT_ARGUMENT_CHARS
                return f"Argument {_short(name)!r} of the prompt is too long: at most {limit} characters."
    return None


class BoundedToolsMiddleware:
    """tools/call: arguments checked first (one sentence naming the argument), results held to the cap;
    resources/read and prompts/get: the URI and prompt arguments bounded (an invalid-params error)."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method in ("resources/read", "prompts/get"):
            problem = _check_request(ctx.method, ctx.params or {})
            if problem is not None:
                raise MCPError(INVALID_PARAMS, problem)
            return await call_next(ctx)
        if ctx.method != "tools/call":
            return await call_next(ctx)
        params = ctx.params or {}
        tool = str(params.get("name", ""))
        problem = check_arguments(tool, params.get("arguments") or {})
        if problem is not None:
            return _error_result(problem)
        result = await call_next(ctx)
        shaped = (
            result.model_dump(by_alias=True, mode="json", exclude_none=True)
            if isinstance(result, BaseModel)
            else result
        )
        if not isinstance(shaped, dict) or "content" not in shaped:
            return result
        if shaped.get("isError"):
            return _error_result(" ".join(str(item.get("text", "")) for item in shaped["content"]))
        size = _size(shaped)
        if size > OUTPUT_CHARS:
            return _error_result(
                f"The result of {tool} is {size:,} characters, over the {OUTPUT_CHARS:,}-character "
                "output cap; ask for less (a smaller limit, one check_id or status, a narrower query)."
            )
        return result
