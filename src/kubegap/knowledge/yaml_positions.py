"""Parse YAML once and remember where every value stands, so a schema error can name its line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # the C loader is ten times faster; fall back where libyaml is missing
    _Loader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader

Path = tuple[str | int, ...]


@dataclass
class PositionedDocument:
    """The plain data of one YAML document plus a map from each key path to its 1-based line."""

    data: Any
    lines: dict[Path, int] = field(default_factory=dict)

    def line_of(self, path: Path) -> int:
        """The line of the deepest part of `path` that exists in the document (1 when none does)."""
        for length in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:length]))
            if line is not None:
                return line
        return 1


class YamlSyntaxError(ValueError):
    """A document that is not valid YAML, with the line where the parser gave up."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def parse_with_positions(text: str) -> PositionedDocument:
    """Parse one YAML document. Raises YamlSyntaxError with a line number when it is not YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return PositionedDocument(data=None, lines={(): 1})
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = error.problem or error.context or "invalid YAML"
        raise YamlSyntaxError(problem, line) from None
    except yaml.YAMLError as error:
        raise YamlSyntaxError(str(error).splitlines()[0], 1) from None
    finally:
        loader.dispose()
    lines: dict[Path, int] = {}
    _walk(node, (), lines)
    return PositionedDocument(data=data, lines=lines)


def _walk(node: yaml.Node, path: Path, lines: dict[Path, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.start_mark)
            child = (*path, key)
            _walk(value_node, child, lines)
            lines[child] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines)
