"""Bilingual sentences with parameters: one `Message` renders in Korean or English on every face.

A finding, a note or an error is written once as a pair of templates (`ko`, `en`) plus the values it
names. Renderers pick the language at the last moment, so the CLI, the reports and the web page show the
same sentence, and JSON keeps the English one for machines.

Templates use `{name}` for a value. Korean needs the particle that fits the value's last sound
("GPU를", "노드가", "3개가", "Job을"), so `{name:을}` writes the value followed by 을 or 를, whichever
fits; any form of the pairs 을/를, 이/가, 은/는, 과/와, 으로/로 and 이나/나 may be given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PLACEHOLDER = re.compile(r"\{(\w+)(?::([가-힣]+))?\}")
# each particle form -> (after a final consonant, after a vowel)
_PAIRS: dict[str, tuple[str, str]] = {}
for _with, _without in (
    ("을", "를"),
    ("이", "가"),
    ("은", "는"),
    ("과", "와"),
    ("으로", "로"),
    ("이나", "나"),
):
    _PAIRS[_with] = _PAIRS[_without] = (_with, _without)

# Final sounds of digits as Korean reads them: 일 이 삼 사 오 육 칠 팔 구; 0 ends 영/십/백/천/만.
_DIGIT_FINAL = {"0": "other", "1": "rieul", "2": "", "3": "other", "4": "", "5": "", "6": "other"}
_DIGIT_FINAL |= {"7": "rieul", "8": "rieul", "9": ""}
# Letter names that end in a consonant: 엘, 엠, 엔, 알.
_LETTER_FINAL = {"l": "rieul", "m": "other", "n": "other", "r": "rieul"}
# Word endings as Korean engineers say them: Job(잡), JobSet(잡셋), Budget(버짓), plan(플랜), ...
_WORD_FINAL = (
    ("job", "other"),
    ("set", "other"),
    ("get", "other"),
    ("ng", "other"),
    ("m", "other"),
    ("n", "other"),
    ("l", "rieul"),
)
_TRAILING = " \t)]}'\"`.,:;"


def final_sound(word: str) -> str | None:
    """'' when the word ends in a vowel, 'rieul' after ㄹ, 'other' after another consonant, None unknown."""
    stripped = word.rstrip(_TRAILING)
    if not stripped:
        return None
    last = stripped[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
        return "" if final == 0 else ("rieul" if final == 8 else "other")
    if last.isdigit():
        return _DIGIT_FINAL[last]
    if last == "%":
        return ""  # 퍼센트
    if not last.isascii() or not last.isalpha():
        return None
    tail = re.search(r"[A-Za-z]+$", stripped)
    letters = tail.group(0) if tail else last
    if letters.isupper() and len(letters) <= 6:  # an acronym is read letter by letter: GPU, NCCL, PVC
        return _LETTER_FINAL.get(letters[-1].lower(), "")
    lowered = letters.lower()
    return next((final for ending, final in _WORD_FINAL if lowered.endswith(ending)), "")


def with_particle(word: str, particle: str) -> str:
    """The word followed by the form of the particle that fits it ('GPU' + 을 -> 'GPU를')."""
    pair = _PAIRS.get(particle)
    if pair is None:
        return word + particle
    final = final_sound(word)
    if final is None:
        return f"{word}{pair[0]}({pair[1]})"
    if pair[0] == "으로":
        return word + ("로" if final in ("", "rieul") else "으로")
    return word + (pair[1] if final == "" else pair[0])


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return ", ".join(_shown(item) for item in items)
    return str(value)


def fill(template: str, params: dict[str, object], korean: bool = False) -> str:
    """The template with its values; a name with no value stays visible as `{name}` instead of raising."""

    def replace(match: re.Match[str]) -> str:
        name, particle = match.group(1), match.group(2)
        if name not in params:
            return match.group(0)
        value = params[name]
        # A value that is itself a sentence (a reason inside an error) speaks the same language.
        shown = value.render("ko") if korean and isinstance(value, Message) else _shown(value)
        return with_particle(shown, particle) if particle and korean else shown

    return _PLACEHOLDER.sub(replace, template)


class Message(str):
    """A sentence in both languages with the values it names.

    A Message *is* its English sentence (a `str`), so every consumer that wants plain text (JSON, logs,
    the MCP server, snapshot files, `in` tests) keeps working unchanged; renderers that show text to
    people call `render(lang)` (or `render_any`) to get the Korean.
    """

    ko: str
    en: str
    params: tuple[tuple[str, object], ...]

    def __new__(cls, ko: str, en: str, params: tuple[tuple[str, object], ...] = ()) -> Message:
        made = super().__new__(cls, fill(en, dict(params)))
        made.ko, made.en, made.params = ko, en, params
        return made

    def render(self, lang: str) -> str:
        if lang == "ko":
            return fill(self.ko, dict(self.params), korean=True)
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Message({self.ko!r}, {self.en!r}, {self.params!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Message, (self.ko, self.en, self.params))

    def values(self) -> dict[str, object]:
        return dict(self.params)

    def __add__(self, other: str) -> Message:
        """Two sentences one after the other (their parameter names must not clash)."""
        if not isinstance(other, Message):
            return Message(self.ko + str(other), self.en + str(other), self.params)
        return Message(self.ko + " " + other.ko, self.en + " " + other.en, self.params + other.params)


def message(ko: str, en: str, /, **params: object) -> Message:
    """Build a Message: `message("{count}개 노드가 ...", "{count} nodes ...", count=3)`."""
    frozen = tuple(
        (name, tuple(value) if isinstance(value, list) else value) for name, value in params.items()
    )
    return Message(ko, en, frozen)


def render_any(text: str | Message, lang: str) -> str:
    """A plain string (from code that has no Korean yet) or a Message, in the language asked for."""
    return text.render(lang) if isinstance(text, Message) else text


def joined(parts: Sequence[Message], separator: str = "; ") -> Message:
    """Several sentences as one ('a; b'), each rendered with its own values."""
    return Message(
        separator.join(part.render("ko") for part in parts),
        separator.join(part.render("en") for part in parts),
    )
