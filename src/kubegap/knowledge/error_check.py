"""Rules across the error catalog and the rest of the knowledge base, reported with file and line.

An entry's id matches its file name and is unique; its linked incidents, study rows and related
entries exist; every pattern has a word that is not log noise, and no two entries claim the same
pattern as the matcher reads it (`XID79` and `Xid 79` are one pattern: a pasted line must resolve to one
meaning).
Check ids cannot be verified here (the knowledge layer does not import the checker); a test does it.
"""

from __future__ import annotations

from pathlib import Path

from kubegap.knowledge.collection import Knowledge
from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.error_text import literal_words, words
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument


def check_errors(knowledge: Knowledge, entries: list[tuple[Path, ErrorEntry, PositionedDocument]]) -> None:
    problems = knowledge.problems
    incident_ids = {incident.id for incident in knowledge.incidents}
    studies = {study.id: study for study in knowledge.studies}
    entry_ids = {entry.id for _, entry, _ in entries}
    seen: dict[str, Path] = {}
    patterns: dict[str, str] = {}
    clashing: set[int] = set()
    for path, entry, document in entries:
        line = document.line_of(("id",))
        if entry.id != path.stem:
            problems.append(
                Problem(path, line, "id", f"id {entry.id!r} differs from file name {path.stem!r}")
            )
        if entry.id in seen:
            problems.append(
                Problem(path, line, "id", f"id {entry.id!r} is also used by {seen[entry.id].name}")
            )
            clashing.add(id(entry))
        seen.setdefault(entry.id, path)
        for index, incident_id in enumerate(entry.incidents):
            if incident_id not in incident_ids:
                where = document.line_of(("incidents", index))
                problems.append(Problem(path, where, "incidents", f"unknown incident {incident_id!r}"))
        for index, link in enumerate(entry.study_rows):
            study = studies.get(link.study)
            where = document.line_of(("study_rows", index))
            if study is None:
                problems.append(Problem(path, where, "study_rows", f"unknown study {link.study!r}"))
            elif link.row >= len(study.rows):
                problems.append(
                    Problem(path, where, "study_rows", f"study {link.study!r} has no row {link.row}")
                )
        for index, other in enumerate(entry.related):
            if other not in entry_ids or other == entry.id:
                where = document.line_of(("related", index))
                problems.append(
                    Problem(path, where, "related", f"unknown or self-referencing entry {other!r}")
                )
        for index, pattern in enumerate(entry.patterns):
            key = " ".join(words(pattern))
            where = document.line_of(("patterns", index))
            if not literal_words(words(pattern)):
                problems.append(
                    Problem(
                        path, where, "patterns", f"pattern {pattern!r} is only values that differ per machine"
                    )
                )
            if key in patterns and patterns[key] != entry.id:
                problems.append(
                    Problem(
                        path, where, "patterns", f"pattern {pattern!r} is also claimed by {patterns[key]!r}"
                    )
                )
            patterns.setdefault(key, entry.id)
    knowledge.errors = sorted(
        (entry for entry in knowledge.errors if id(entry) not in clashing), key=lambda entry: entry.id
    )
