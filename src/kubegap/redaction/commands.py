"""Credentials on command lines and in credential files, where the flag alone does not say "secret".

`curl -u admin:pw`, `mysql -uroot -ppw`, `sshpass -p pw`, `docker login -u ci -p pw`,
`redis-cli -a pw`, `wandb login <key>`, `htpasswd -b file user pw`, `mc alias set s3 URL KEY SECRET`,
`openssl ... -passin pass:pw`, `smbclient -U user%pw`, `sqlcmd -P pw`, `ldapsearch -w pw`: `-p` is a
port for `ssh` and `docker run`, a parent folder for `mkdir`, so each flag counts only after its
command. A container's `command` and `args` lists go through the same reading (`redact_args`), and so
does free text (scripts in ConfigMaps, log lines), cut into commands at newlines, `;`, `|` and `&`.
`.netrc` (`machine h login u password pw`) and `.pgpass` lines are read here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kubegap.redaction.formats import REDACTED
from kubegap.redaction.names import is_secret_name
from kubegap.redaction.values import is_not_a_secret

# A quoted word, a plain word, or a separator; a backslash-newline continues the command.
_WORD = re.compile(
    r"(?P<sep>\n|;|\|\|?|&&?)|\\\n|\"(?P<dq>[^\"\n]*+)\"|'(?P<sq>[^'\n]*+)'|(?P<plain>[^\s\"';|&]++)|[\"']"
)


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_MYSQL = _names("mysql mysqldump mysqladmin mariadb mariadb-dump")
_MONGO = _names("mongo mongosh mongodump mongorestore mongoexport mongoimport")
# Registry clients take `-p` as a password only after `login`.
_LOGIN_PROGRAMS = frozenset(_names("docker podman nerdctl buildah skopeo oras crane helm oc az"))
_LDAP = _names("ldapsearch ldapadd ldapmodify ldapdelete ldapwhoami ldappasswd")
# Flags whose next word (or glued rest: `-ppw`) is a password, per program.
_PASSWORD_FLAGS: dict[str, frozenset[str]] = {
    **dict.fromkeys((*_MYSQL, "sshpass", *_MONGO, *_LOGIN_PROGRAMS, "7z", "7za"), frozenset({"-p"})),
    "redis-cli": frozenset({"-a"}),
    **dict.fromkeys(("zip", "unzip", "sqlcmd", "bcp", "isql"), frozenset({"-P"})),
    **dict.fromkeys(_LDAP, frozenset({"-w"})),
    "ssh-keygen": frozenset({"-N", "-P"}),
    "openssl": frozenset({"-k", "-K", "-pass", "-passin", "-passout", "-password"}),
}
_PROGRAMS = frozenset({*_PASSWORD_FLAGS, *_names("curl wget wandb htpasswd smbclient rabbitmqctl mc aws")})


def _by_first_letter(words: frozenset[str]) -> re.Pattern[str]:
    """Any of `words` anywhere, grouped by first letter: the scan skips to possible first letters
    and tries few words there (a quick test before the words of a text are read)."""
    rests: dict[str, list[str]] = {}
    for word in sorted(words, key=len, reverse=True):
        rests.setdefault(word[0], []).append(re.escape(word[1:]))
    return re.compile(
        "|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in sorted(rests.items()))
    )


_ANY_PROGRAM = _by_first_letter(_PROGRAMS)
# Programs that also take the password glued to its flag (`-ppw`).
_GLUED = frozenset({*_MYSQL, "sshpass", "7z", "7za"})
_USER_COLON_PASSWORD = frozenset({"-u", "--user", "-U", "--proxy-user"})  # curl
# Subcommands whose positional words hold secrets: (program, subcommand) -> positions after it.
_SECRET_POSITIONS = {
    ("wandb", "login"): (0,),
    ("rabbitmqctl", "add_user"): (1,),
    ("rabbitmqctl", "change_password"): (1,),
    ("mc", "set"): (2, 3),
    ("mc", "add"): (2, 3),
}
_NETRC = re.compile(
    r"(?:l(?<![\w\-]l)ogin|a(?<![\w\-]a)ccount|m(?<![\w\-]m)achine)[ \t]++[^\s]{1,256}+\s++password[ \t]++"
    r"(?P<secret>[^\s]{1,512}+)"
)
# A quoted string, read as a command of its own when it holds a space (`sh -c "curl -u a:b ..."`).
_QUOTED = re.compile(r"(?<=\")[^\"\n]*+(?=\")|(?<=')[^'\n]*+(?=')")
# host:port:database:user:password (a `.pgpass` line), also quoted inside a sentence; the host holds
# a letter or a dot and the port is a number, so a MAC address or a time of day is not one.
_PGPASS = re.compile(
    r"(?P<keep>[A-Za-z0-9._*\-](?<![^\s\"'=/].)[A-Za-z0-9._*\-]{0,252}+:(?:[0-9]{1,5}+|\*):"
    r"[A-Za-z0-9_.*$\-]{1,63}+:[A-Za-z0-9_.@$\-]{1,63}+:)[^\s\"',;]{1,512}+"
)


@dataclass
class _Command:
    program: str
    login: bool = False
    hide_next: str = ""  # "all" (the next word), "after-colon" (its part after the first colon)
    subcommand: str = ""
    positionals: list[int] = field(default_factory=list)
    htpasswd_batch: bool = False
    htpasswd_print: bool = False


def _program(word: str) -> str:
    """`/usr/bin/curl` and `--exec=curl` name curl."""
    return word.rsplit("=", 1)[-1].rsplit("/", 1)[-1]


def hidden_spans(words: Sequence[str]) -> list[tuple[int, int, int]]:
    """(word index, start, end) of each secret inside a command's words (one command or several);
    a reference (`$PASSWORD`, `{{ .Values.key }}`) in a secret's place is not one."""
    return [span for span in _spans(words) if not is_not_a_secret(words[span[0]][span[1] : span[2]])]


def _spans(words: Sequence[str]) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    command: _Command | None = None

    def finish() -> None:
        # htpasswd -b[c] FILE USER PASSWORD, htpasswd -nb USER PASSWORD
        if command is not None and command.htpasswd_batch:
            position = 1 if command.htpasswd_print else 2
            if len(command.positionals) > position:
                index = command.positionals[position]
                spans.append((index, 0, len(words[index])))

    for index, word in enumerate(words):
        if word in (";", "|", "||", "&", "&&", "\n"):
            finish()
            command = None
            continue
        if command is not None and command.hide_next:
            mode, command.hide_next = command.hide_next, ""
            if word and not word.startswith("-"):
                start = word.find(":") + 1 if mode == "after-colon" else 0
                if mode != "after-colon" or start > 0:
                    spans.append((index, start, len(word)))
                continue
        if _program(word) in _PROGRAMS:
            finish()
            command = _Command(_program(word))
            continue
        if command is not None:
            _read_word(command, index, word, spans)
    finish()
    return spans


def _read_word(command: _Command, index: int, word: str, spans: list[tuple[int, int, int]]) -> None:
    program = command.program
    flags = _PASSWORD_FLAGS.get(program, frozenset())
    if program in _LOGIN_PROGRAMS and not command.login:
        command.login = word == "login"
        flags = frozenset()
    if word in flags:
        command.hide_next = "all"
        return
    if program in _GLUED and any(word.startswith(flag) and len(word) > 2 for flag in flags):
        spans.append((index, 2, len(word)))
        return
    if program == "openssl" and word.startswith("pass:"):
        spans.append((index, 5, len(word)))
        return
    if program == "curl":
        _read_curl(command, index, word, spans)
    elif program == "smbclient" and "%" in word and not word.startswith("-"):
        spans.append((index, word.index("%") + 1, len(word)))
    elif program == "htpasswd":
        if word.startswith("-"):
            command.htpasswd_batch |= "b" in word
            command.htpasswd_print |= "n" in word
        else:
            command.positionals.append(index)
    elif program == "aws" and not word.startswith("-"):
        if command.subcommand and is_secret_name(command.subcommand):
            spans.append((index, 0, len(word)))
        command.subcommand = word
    elif not word.startswith("-"):
        _read_positional(command, index, word, spans)


def _read_curl(command: _Command, index: int, word: str, spans: list[tuple[int, int, int]]) -> None:
    if word in _USER_COLON_PASSWORD:
        command.hide_next = "after-colon"
    elif word == "--oauth2-bearer":
        command.hide_next = "all"
    else:
        for flag in ("--user=", "--proxy-user=", "-u", "-U"):
            if word.startswith(flag) and len(word) > len(flag) and ":" in word:
                spans.append((index, word.index(":") + 1, len(word)))
                return


def _read_positional(command: _Command, index: int, word: str, spans: list[tuple[int, int, int]]) -> None:
    if not command.subcommand:
        if (command.program, word) in _SECRET_POSITIONS:
            command.subcommand = word
        return
    if command.program == "wandb" and word.startswith("http"):
        return  # the value of --host
    position = len(command.positionals)
    command.positionals.append(index)
    if position in _SECRET_POSITIONS.get((command.program, command.subcommand), ()):
        spans.append((index, 0, len(word)))


def _words_of(text: str) -> tuple[list[str], list[int]]:
    words: list[str] = []
    starts: list[int] = []
    for match in _WORD.finditer(text):
        for group in ("sep", "dq", "sq", "plain"):
            value = match.group(group)
            if value is not None:
                words.append(value)
                starts.append(match.start(group))
                break
    return words, starts


def _pgpass(match: re.Match[str]) -> str:
    """A `.pgpass` line's password, when its host and database hold letters (not a MAC address)."""
    keep = match.group("keep")
    host, _, database, _, _ = keep.split(":")
    named = any(char.isalpha() or char in ".*" for char in host) and any(char.isalpha() for char in database)
    return keep + REDACTED if named else match.group(0)


def _quoted_command(match: re.Match[str]) -> str:
    inside = match.group(0)
    return redact_command_lines(inside, quoted=True) if " " in inside else inside


def redact_command_lines(text: str, quoted: bool = False) -> str:
    """Free text with every command-line and credential-file secret replaced; a quoted command
    (`sh -c "curl -u a:b ..."`) is read inside its quotes too."""
    if text.count(":") >= 4:
        text = _PGPASS.sub(_pgpass, text)
    if "password" in text:
        text = _NETRC.sub(lambda m: m.group(0)[: m.start("secret") - m.start()] + REDACTED, text)
    if not _ANY_PROGRAM.search(text):
        return text
    if not quoted:
        text = _QUOTED.sub(_quoted_command, text)
    words, starts = _words_of(text)
    parts: list[str] = []
    position = 0
    for index, start, end in sorted(hidden_spans(words), key=lambda span: starts[span[0]] + span[1]):
        begin = starts[index] + start
        if begin < position or words[index][start:end].startswith(REDACTED):
            continue
        parts += [text[position:begin], REDACTED]
        position = starts[index] + end
    parts.append(text[position:])
    return "".join(parts)
