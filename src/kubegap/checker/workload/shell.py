"""What a container runs, read as a shell would: `bash -c "…"` scripts are split into simple commands.

Manifests hide most of what matters in one string: `command: [bash, -c]` with a YAML block scalar in
`args`, a RayJob `entrypoint`, `torchrun --nnodes=$N train.py && sleep 10`. Words found by substring in
that string mislead (`--save` in `--save_total_limit`, `activation_checkpointing`), so the script is
split with shlex into simple commands (argv lists), and the variables it exports are read as env.
Nothing is executed and nothing raises: an unbalanced quote falls back to splitting on whitespace.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from kubegap.checker.extract._fields import strings

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ash", "ksh"})
# Words that start a command but run the one after them: `exec torchrun`, `nohup python x.py &`.
_WRAPPERS = frozenset({"exec", "nohup", "time", "env", "command", "stdbuf", "nice", "timeout", "sudo"})
# Shell syntax words: control flow, not programs.
KEYWORDS = frozenset(
    {
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "for",
        "in",
        "do",
        "done",
        "while",
        "until",
        "case",
        "esac",
        "{",
        "}",
    }
)
_SEPARATORS = re.compile(r"&&|\|\||[;&|\n()]")
_DURATION = re.compile(r"^[0-9]+[smhd]?$")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Commands:
    """The simple commands a container runs (each an argv) and the env its script exports."""

    argvs: tuple[tuple[str, ...], ...]
    exported: dict[str, str]

    def programs(self) -> list[str]:
        """The program of each command, as its base name (`/usr/bin/python3` -> `python3`)."""
        return [argv[0].rsplit("/", 1)[-1] for argv in self.argvs if argv]

    def words(self) -> list[str]:
        return [word for argv in self.argvs for word in argv]

    def flag(self, *names: str) -> str | None:
        """The value of the first of `names` given as `--flag value` or `--flag=value`, in any command."""
        for argv in self.argvs:
            for index, word in enumerate(argv):
                for name in names:
                    if word == name and index + 1 < len(argv):
                        return argv[index + 1]
                    if word.startswith(name + "="):
                        return word[len(name) + 1 :]
        return None

    def has_flag(self, *names: str) -> bool:
        return any(word == name or word.startswith(name + "=") for word in self.words() for name in names)


def _split(text: str) -> list[str]:
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()\n")
        lexer.whitespace = " \t\r"
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError:  # an unbalanced quote: split the plain way rather than give up
        return [word for word in _SEPARATORS.sub(" ; ", text).split() if word]


def _simple_commands(words: list[str]) -> list[list[str]]:
    """Cut a token stream at shell separators (`;`, `&&`, `|`, newlines, parentheses)."""
    found: list[list[str]] = [[]]
    for word in words:
        if word and set(word) <= set(";&|()\n"):
            found.append([])
        else:
            found[-1].append(word)
    return [command for command in found if command]


def _script_of(argv: list[str]) -> tuple[str, list[str]] | None:
    """(script, rest) when argv runs a shell with -c; the words after the script are its $0, $1..."""
    if not argv or argv[0].rsplit("/", 1)[-1] not in SHELLS:
        return None
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            if index + 1 < len(argv):
                return argv[index + 1], argv[index + 2 :]
            return "", []
        if not word.startswith("-"):
            return None  # `bash script.sh`: a file we cannot read
    return None


def parse_script(text: str, exported: dict[str, str] | None = None) -> Commands:
    """Split a shell script into simple commands; `export A=1`, `A=1 cmd` become exported env."""
    env = {} if exported is None else exported
    argvs: list[tuple[str, ...]] = []
    for command in _simple_commands(_split(text)):
        argv = _strip(command, env)
        if argv:
            nested = _script_of(argv)
            if nested is not None:
                inner = parse_script(nested[0], env)
                argvs.extend(inner.argvs)
                continue
            argvs.append(tuple(argv))
    return Commands(tuple(argvs), env)


def _strip(command: list[str], env: dict[str, str]) -> list[str]:
    """Drop leading assignments, `export`, keywords and wrappers; remember what they set."""
    words = list(command)
    while words:
        head = words[0]
        if head == "export" or head == "declare" or head in KEYWORDS:
            if head == "export" or head == "declare":
                for word in words[1:]:
                    if (match := _ASSIGNMENT.match(word)) is not None:
                        env[match.group(1)] = match.group(2)
                return []
            words = words[1:]
            continue
        match = _ASSIGNMENT.match(head)
        if match is not None:
            env[match.group(1)] = match.group(2)
            words = words[1:]
            continue
        if head.rsplit("/", 1)[-1] in _WRAPPERS and len(words) > 1:
            words = words[1:]
            while words and (words[0].startswith("-") or _DURATION.match(words[0])):
                words = words[1:]
            continue
        break
    return words


def commands_of(container: dict[str, Any], entrypoint: str = "") -> Commands:
    """What one container runs: command + args, with any `sh -c` script (or an entrypoint) split.

    With no `command` and args that start with a flag, the image's own entrypoint runs them: it is
    named by the image (`cuda-sample --benchmark`), so flags still belong to a program.
    """
    argv = strings(container.get("command")) + strings(container.get("args"))
    if not strings(container.get("command")) and argv and argv[0].startswith("-"):
        image = str(container.get("image") or "")
        argv = [image.split("@")[0].rsplit("/", 1)[-1].split(":")[0] or "entrypoint", *argv]
    env: dict[str, str] = {}
    if entrypoint:
        return parse_script(entrypoint, env)
    script = _script_of(argv)
    if script is not None:
        return parse_script(script[0], env)
    if len(argv) == 1 and any(mark in argv[0] for mark in (" ", "\n", ";")):
        return parse_script(argv[0], env)  # one string holding a whole command line
    # A plain argv: each word is one word, even if it holds spaces; but an argument holding a
    # whole script (`args: ["python x.py; sleep 1"]` after a `command: [bash]`) is split too.
    if argv and argv[0].rsplit("/", 1)[-1] in SHELLS and len(argv) == 2 and not argv[1].startswith("-"):
        return parse_script(argv[1], env) if "\n" in argv[1] or ";" in argv[1] else Commands((), env)
    stripped = _strip(argv, env)
    return Commands((tuple(stripped),) if stripped else (), env)
