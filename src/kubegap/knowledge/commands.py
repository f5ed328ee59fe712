"""`kubegap knowledge ...`: validate the knowledge base and publish its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kubegap.bilingual import message
from kubegap.cli_support import lang_option
from kubegap.errors import UsageError
from kubegap.knowledge.citations import CHECK_CITATIONS, citation_problems
from kubegap.knowledge.collection import Taxonomy
from kubegap.knowledge.loader import BUNDLED_ROOT, default_root, load_knowledge
from kubegap.knowledge.organizations import KIND_LABELS, OrganizationKind
from kubegap.knowledge.schema import json_schemas
from kubegap.knowledge.scope import SCOPE_FACET
from kubegap.knowledge.stats import corpus_stats
from kubegap.text import label


@click.group()
def knowledge() -> None:
    """Validate and describe the knowledge base (taxonomy, incidents, fleet studies)."""


@knowledge.command()
@click.option("--root", type=click.Path(path_type=Path), help="Knowledge folder (default: the bundled one).")
@click.option(
    "--check-citations/--no-check-citations",
    default=None,
    help="Also check that every check cites live incidents (default: only for the bundled knowledge).",
)
@lang_option
def validate(root: Path | None, check_citations: bool | None, lang: str) -> None:
    """Check every file against the schema and the cross-references; exit 1 on any problem."""
    root = root or default_root()
    if not root.is_dir():
        raise UsageError(
            message("지식 폴더가 없습니다: {root}", "knowledge folder not found: {root}", root=str(root))
        )
    loaded = load_knowledge(root)
    if check_citations is None:
        check_citations = root.resolve() == BUNDLED_ROOT.resolve()
    provider = click.get_current_context().meta.get(CHECK_CITATIONS)
    if check_citations and provider is not None:
        loaded.problems.extend(citation_problems(loaded, provider()))
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
@lang_option
def schema(kind: str, lang: str) -> None:
    """Print the JSON Schema of one record kind, for editors and other tools.

    The schema is code, like the files in schemas/: its field descriptions are the same in every language.
    """
    click.echo(json.dumps(json_schemas()[kind], ensure_ascii=False, indent=2))


_STATS_HEADINGS = {
    "by_scope": ("범위별 사례", "Incidents by scope"),
    "by_year": ("연도별 사례", "Incidents by year"),
    "by_cause_family": ("원인 계열별 사례", "Incidents by cause family"),
    "by_orchestrator": ("오케스트레이터별 사례", "Incidents by orchestrator"),
    "by_organization_kind": ("조직 종류별 사례", "Incidents by kind of organisation"),
    "sources_by_kind": ("종류별 출처", "Sources by kind"),
    "unstated_sections": ("출처가 말하지 않은 항목", "Sections the sources are silent on"),
}


@knowledge.command()
@click.option("--root", type=click.Path(path_type=Path), help="Knowledge folder (default: the bundled one).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@lang_option
def stats(root: Path | None, as_json: bool, lang: str) -> None:
    """What the corpus covers: counts by year, cause family, setting, source kind and publisher."""
    loaded = load_knowledge(root or default_root())
    figures = corpus_stats(loaded)
    if as_json:
        click.echo(json.dumps(figures.as_json(), ensure_ascii=False, indent=2))
        return
    summary = message(
        "사례 {incidents}건(조직 {organizations}곳), 플릿 연구 {studies}건, 출처 발행처 {publishers}곳",
        "{incidents} incidents (from {organizations} organisations), {studies} studies, "
        "{publishers} source publishers",
        incidents=figures.incidents,
        studies=figures.studies,
        organizations=figures.organizations,
        publishers=len(figures.publishers),
    )
    click.echo(summary.render(lang))
    taxonomy = loaded.taxonomy
    for key, (korean, english) in _STATS_HEADINGS.items():
        click.echo(f"\n{korean if lang == 'ko' else english}")
        counts: dict[str, int] = getattr(figures, key)
        for name, count in counts.items():
            click.echo(f"  {count:>4}  {_stats_name(taxonomy, key, name, lang)}")


def _stats_name(taxonomy: Taxonomy, key: str, name: str, lang: str) -> str:
    """A counted value in the reader's language, `label · id` where it is an id (as `facets` prints)."""
    if key == "by_scope":
        term = taxonomy.term(SCOPE_FACET, name)
        return f"{term.label.get(lang)} · {name}" if term else name
    if key == "by_cause_family":
        term = taxonomy.term("cause", name)
        return f"{term.label.get(lang)} · {name}" if term else name
    if key == "by_organization_kind" and name in set(OrganizationKind):
        return f"{KIND_LABELS[OrganizationKind(name)].get(lang)} · {name}"
    prefix = {"by_orchestrator": "orchestrator.", "sources_by_kind": "source."}.get(key)
    if prefix:
        return label(prefix + name, lang)
    if key == "unstated_sections":
        return label("section." + name, lang)
    return name
