"""`kubegap errors list|show`: the error-signature catalog in a terminal, or as JSON.

`show` takes an entry id (`xid-79`) or any pasted text that contains a catalog pattern
(`"NVRM: Xid (PCI:0000:3b:00): 79, pid=1234"`), so a reader can paste a log line as it is.
"""

from __future__ import annotations

import json
import sys

import click
from rich.table import Table
from rich.text import Text

from kubegap.bilingual import message
from kubegap.cli_support import lang_option
from kubegap.errors import NotFoundError
from kubegap.knowledge.error_model import ErrorEntry, ErrorFamily
from kubegap.library import export, render
from kubegap.library.library import Library

_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@click.group()
def errors() -> None:
    """The error-signature catalog: Xid codes, NCCL, CUDA/NVML, Kubernetes and etcd messages."""


@errors.command("list")
@click.option("--family", type=click.Choice([family.value for family in ErrorFamily]), default=None)
@lang_option
@_json_option
def list_errors(family: str | None, lang: str, as_json: bool) -> None:
    """Every catalog entry (optionally of one family) with its title; piped, one entry per line."""
    entries = [entry for entry in Library.open().errors() if family is None or entry.family.value == family]
    if as_json:
        click.echo(
            json.dumps([export.error_summary(entry, lang) for entry in entries], ensure_ascii=False, indent=2)
        )
        return
    if not sys.stdout.isatty():  # a pipe: one `id  family  title` record per line, for grep and cut
        lines = [f"{entry.id}  {entry.family.value}  {entry.title.get(lang)}" for entry in entries]
        click.echo("\n".join(lines))
        return
    table = Table()
    for heading in ("ID", "분류" if lang == "ko" else "Family", "제목" if lang == "ko" else "Title"):
        table.add_column(heading, overflow="fold")
    for entry in entries:
        table.add_row(entry.id, entry.family.value, entry.title.get(lang))
    render.console().print(table)


@errors.command("show")
@click.argument("id_or_text")
@lang_option
@_json_option
def show_error(id_or_text: str, lang: str, as_json: bool) -> None:
    """One entry by id, or the entries a pasted error text contains."""
    library = Library.open()
    found = library.resolve_error(id_or_text)
    if not found:
        raise NotFoundError(
            message(
                "{text}에 맞는 카탈로그 항목이 없습니다. `kubegap errors list`로 전체를 봅니다",
                "no catalog entry matches {text}; `kubegap errors list` shows them all",
                text=repr(id_or_text[:80]),
            )
        )
    if as_json:
        data = [export.error_detail(entry, lang) for entry in found]
        click.echo(json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False, indent=2))
        return
    for entry in found:
        render.console().print(_entry_text(entry, library, lang))


def _entry_text(entry: ErrorEntry, library: Library, lang: str) -> Text:
    ko = lang == "ko"
    text = Text(entry.title.get(lang) + "\n", style="bold")
    text.append(("패턴: " if ko else "Patterns: ") + " · ".join(entry.patterns) + "\n\n", style="dim")
    text.append(("의미\n" if ko else "Meaning\n"), style="bold")
    text.append(entry.meaning.get(lang) + "\n\n")
    text.append(("보통의 조치\n" if ko else "Usual action\n"), style="bold")
    text.append(entry.usual_action.get(lang) + "\n")
    if entry.incidents:
        text.append(("\n관련 사례\n" if ko else "\nIncidents\n"), style="bold")
        for incident_id in entry.incidents:
            try:
                title = library.incident(incident_id).title.get(lang)
            except NotFoundError:
                title = ""
            text.append(f"- {incident_id}  {title}\n")
    if entry.checks:
        text.append(("\n막아 주는 점검: " if ko else "\nGuarding checks: ") + ", ".join(entry.checks) + "\n")
    text.append(("\n출처\n" if ko else "\nSources\n"), style="bold")
    for source in entry.sources:
        text.append(f"- {source.title}: {source.url}\n")
    return text
