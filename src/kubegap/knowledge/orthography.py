"""Standard Korean spacing where Korean meets Latin words and numbers: particles attach ("GPU를").

Korean writes a particle (조사) and the copula (이다) against the word before it, whatever script that
word is in: "GPU를", "60%가", "NCCL에서", "v2.18로", "(PDT)까지". Writers who switch keyboards often leave
a space ("GPU 를"), which reads as a typo to a Korean engineer. Not every space before a Korean syllable
is wrong, though: nouns and dependent nouns after a Latin word keep theirs ("GPU 노드", "NCCL 관련",
"all_gather 중", "AutoRAG 등", "OpenAI 쪽"). So the rule only fires when the whole Korean word after
the space is one of the particle forms below, never on a word that merely begins with one ("GPU 이상",
"API 서버", "H100 노드의").

The forms (`PARTICLES`): case particles 이/가, 을/를, 은/는, 의, 에, 에서, 에게, 로/으로, 와/과, 도, 만,
까지, 부터, 보다, 처럼, 마다, 이나/나, 라/이라, 이란/란, and the combinations the corpus uses
(에서는, 으로는, 와의 ...); the copula 이다/인/였다/이며/이고 ...; and the suffixes that attach the same way:
당 ("GPU당"), 별 ("노드별"), 씩 ("2개씩"), 들 ("GPU들").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument

_SIMPLE = (
    "이 가 을 를 은 는 의 에 에서 에게 에게서 한테 로 으로 와 과 도 만 까지 부터 보다 처럼 마다 만큼 "
    "이나 나 라 이라 이란 란 이든 든 이라도 라도 조차 밖에 뿐 "
    "당 별 씩 들"
)
_COMBINED = (
    "에서는 에서도 에서의 에서만 에서부터 에는 에도 에만 에의 에게는 으로는 으로도 으로만 으로서 으로써 "
    "으로의 로는 로도 로만 로서 로써 로의 와는 과는 와도 과도 와의 과의 만의 만이 만을 만으로 까지는 "
    "까지도 까지의 까지만 부터는 부터의 보다는 보다도 처럼은 마다의 이나마 들이 들을 들의 들에 들은 들도 "
    "들과 들로 들에서 별로 별로는 당은"
)
_COPULA = (
    "이다 다 인 였다 이었다 였고 이었고 였던 이었던 이며 며 이고 이지만 지만 이면 이라면 라면 이라는 "
    "라는 이라고 라고 이란다 입니다 이에요 예요 일 이던 던 이었으나 였으나 이므로 이어서 여서 이어야 "
    "여야 이거나 거나"
)
PARTICLES: frozenset[str] = frozenset((_SIMPLE + " " + _COMBINED + " " + _COPULA).split())

# A Latin letter, a digit, or a sign that ends a Latin run (%, closing bracket or quote, backtick),
# then spaces, then a whole Korean word that ends at a space, punctuation or the end of the text.
_SPACED = re.compile(r"(?<=[A-Za-z0-9%)\]}'\"`’”])[ \t]+([가-힣]+)(?=[\s.,·:;!?)\]}'\"`’”/~-]|$)")


def spaced_particles(text: str) -> list[tuple[int, str]]:
    """Each particle written apart from the Latin word or number before it: (offset, the particle)."""
    found = []
    for match in _SPACED.finditer(text):
        word = match.group(1)
        if word in PARTICLES:
            found.append((match.start(), word))
    return found


def attach_particles(text: str) -> str:
    """The text with every spaced particle attached, other spaces untouched."""

    def _join(match: re.Match[str]) -> str:
        word = match.group(1)
        return word if word in PARTICLES else match.group(0)

    return _SPACED.sub(_join, text)


def excerpt(text: str, offset: int, word: str) -> str:
    """The spaced particle with the word before it, as the validator quotes it: 'GPU 를'."""
    before = text[max(0, offset - 30) : offset].split()
    return f"{before[-1] if before else ''} {word}".strip()


def particle_problems(path: Path, document: PositionedDocument) -> list[Problem]:
    """One Problem per Korean text (every `ko` value) that spaces a particle, at that field's line."""
    found: list[Problem] = []
    for where, text in korean_texts(document.data):
        for offset, word in spaced_particles(text):
            quoted = excerpt(text, offset, word)
            found.append(
                Problem(
                    path,
                    document.line_of(where),
                    ".".join(str(part) for part in where),
                    f"attach the particle to the word before it: {quoted.replace(' ', '')!r}, not {quoted!r}",
                )
            )
    return found


def korean_texts(
    data: object, where: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(key path, text) for every `ko` string in a parsed YAML document, at any depth."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "ko" and isinstance(value, str):
                yield (*where, key), value
            else:
                yield from korean_texts(value, (*where, str(key)))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from korean_texts(item, (*where, index))
