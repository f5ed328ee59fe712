"""`kubegap knowledge ...`: validate the knowledge base and publish its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kubegap.knowledge.loader import default_root, load_knowledge
from kubegap.knowledge.schema import json_schemas


@click.group()
def knowledge() -> None:
    """Validate and describe the knowledge base (taxonomy, incidents, fleet studies)."""


@knowledge.command()
@click.option("--root", type=click.Path(path_type=Path), help="Knowledge folder (default: the bundled one).")
def validate(root: Path | None) -> None:
    """Check every file against the schema and the cross-references; exit 1 on any problem."""
    root = root or default_root()
    if not root.is_dir():
        raise click.ClickException(f"knowledge folder not found: {root}")
    loaded = load_knowledge(root)
    for problem in sorted(loaded.problems):
        click.echo(problem.render(Path.cwd()))
    summary = (
        f"{len(loaded.incidents)} incidents, {len(loaded.studies)} studies, "
        f"{sum(len(f.terms) for f in loaded.taxonomy.facets.values())} taxonomy terms, "
        f"{len(loaded.taxonomy.organizations)} organizations"
    )
    if loaded.problems:
        click.echo(f"{len(loaded.problems)} problem(s); valid: {summary}", err=True)
        raise click.exceptions.Exit(1)
    click.echo(f"OK: {summary}")


@knowledge.command()
@click.option(
    "--kind", type=click.Choice(["incident", "study", "taxonomy", "organizations"]), default="incident"
)
def schema(kind: str) -> None:
    """Print the JSON Schema of one record kind, for editors and other tools."""
    click.echo(json.dumps(json_schemas()[kind], ensure_ascii=False, indent=2))
