"""The one error vocabulary. Every expected failure is a KubegapError subclass, shown as:

- CLI: a single line `Error: ...` on stderr and the exit code: 2 for a usage or input error, 3 when a
  cluster could not be read (unreachable, refused, timed out); 1 is kept for fails at or above
  `--fail-on` (and an invalid knowledge base);
- HTTP: the JSON shape `{"error": {"code", "message"}}` or a friendly page, with `http_status`;
- MCP: a tool result with `isError` and the same one-line message.
"""

from __future__ import annotations

from kubegap.bilingual import Message, render_any

MAX_MESSAGE_CHARS = 500


class KubegapError(Exception):
    """Base class: a problem we expected and can explain in one line."""

    code = "error"
    exit_code = 2
    http_status = 400

    def one_line(self, lang: str = "en") -> str:
        """The message squeezed onto one line and bounded, so no error ever spreads over many lines.

        Raised with a `Message`, the error speaks the reader's language; with a plain string, English.
        """
        said = self.args[0] if self.args and isinstance(self.args[0], str) else str(self)
        text = " ".join(render_any(said, lang).split())
        if len(text) > MAX_MESSAGE_CHARS:
            text = text[: MAX_MESSAGE_CHARS - 1] + "…"
        return text or self.code

    def sentence(self) -> Message:
        """The same bounded line in both languages, for a report or note that renders it later."""
        return Message(self.one_line("ko"), self.one_line("en"))

    def as_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.one_line()}}


class UsageError(KubegapError):
    """The caller asked for something that does not make sense (an unknown facet value, a bad flag)."""

    code = "bad-request"


class NotFoundError(KubegapError):
    """The thing asked for does not exist (an incident id, a check id)."""

    code = "not-found"
    http_status = 404


class KnowledgeError(KubegapError):
    """The knowledge base could not be read or is invalid."""

    code = "knowledge-invalid"
    exit_code = 1
    http_status = 500


class InputError(KubegapError):
    """A snapshot, manifest or config file that cannot be read as what it claims to be."""

    code = "bad-input"


class ClusterError(KubegapError):
    """The cluster could not be read: unreachable, refused us, or timed out (exit code 3)."""

    code = "cluster-unavailable"
    exit_code = 3
    http_status = 502


class KubeconfigError(ClusterError):
    """A kubeconfig that cannot be used: missing, malformed, without the context (an input error, exit 2)."""

    code = "kubeconfig-invalid"
    exit_code = 2
    http_status = 400
