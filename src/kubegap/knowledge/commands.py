"""`kubegap knowledge ...`: validate the knowledge base and publish its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kubegap.bilingual import message
from kubegap.cli_support import lang_option
from kubegap.errors import UsageError
from kubegap.knowledge.loader import default_root, load_knowledge
from kubegap.knowledge.schema import json_schemas


@click.group()
def knowledge() -> None:
    """Validate and describe the knowledge base (taxonomy, incidents, fleet studies)."""


@knowledge.command()
@click.option("--root", type=click.Path(path_type=Path), help="Knowledge folder (default: the bundled one).")
@lang_option
def validate(root: Path | None, lang: str) -> None:
    """Check every file against the schema and the cross-references; exit 1 on any problem."""
    root = root or default_root()
    if not root.is_dir():
        raise UsageError(
            message("지식 폴더가 없습니다: {root}", "knowledge folder not found: {root}", root=str(root))
        )
    loaded = load_knowledge(root)
    for problem in sorted(loaded.problems):
        click.echo(problem.render(Path.cwd()))
    summary = message(
        "사례 {incidents}건, 플릿 연구 {studies}건, 분류 용어 {terms}개, 조직 {organizations}곳, "
        "오류 카탈로그 항목 {errors}개",
        "{incidents} incidents, {studies} studies, {terms} taxonomy terms, {organizations} organizations, "
        "{errors} error-catalog entries",
        incidents=len(loaded.incidents),
        studies=len(loaded.studies),
        terms=sum(len(f.terms) for f in loaded.taxonomy.facets.values()),
        organizations=len(loaded.taxonomy.organizations),
        errors=len(loaded.errors),
    )
    if loaded.problems:
        count = len(loaded.problems)
        if lang == "ko":
            click.echo(f"문제 {count}개. 올바른 것: {summary.render(lang)}", err=True)
        else:
            click.echo(f"{count} problem(s); valid: {summary}", err=True)
        raise click.exceptions.Exit(1)
    click.echo(f"OK: {summary.render(lang)}")


@knowledge.command()
@click.option(
    "--kind",
    type=click.Choice(["incident", "study", "taxonomy", "organizations", "error"]),
    default="incident",
)
def schema(kind: str) -> None:
    """Print the JSON Schema of one record kind, for editors and other tools."""
    click.echo(json.dumps(json_schemas()[kind], ensure_ascii=False, indent=2))
