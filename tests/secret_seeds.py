"""Seeded credentials for the leak test: 40+ token formats, each a fresh random value in its real shape.

Each format gives the text placed in a field (the carrier: a token alone, or `password=...`, a URL
with a password, a PEM block) and the secret inside it, the part that must never leave kubegap. The
values are generated from a seeded random source, so a run is repeatable but no value is a
well-known example a pattern could have been fitted to.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_HEX = "0123456789abcdef"
URLSAFE = ALNUM + "_-"


@dataclass(frozen=True)
class Seed:
    format: str
    carrier: str  # what is written into the field
    secret: str  # what must not appear, nor any 8-character piece of it


def _pick(generator: random.Random, alphabet: str, length: int) -> str:
    """Random characters with a digit, an upper and a lower letter wherever the alphabet has them."""
    while True:
        value = "".join(generator.choice(alphabet) for _ in range(length))
        wanted = [
            kind
            for kind in (string.digits, string.ascii_uppercase, string.ascii_lowercase)
            if set(kind) & set(alphabet)
        ]
        if length < 8 or all(set(value) & set(kind) for kind in wanted):
            return value


def _whole(name: str, make: Callable[[random.Random], str]) -> Callable[[random.Random], Seed]:
    def build(generator: random.Random) -> Seed:
        token = make(generator)
        return Seed(name, token, token)

    return build


def _inside(
    name: str, template: str, make: Callable[[random.Random], str]
) -> Callable[[random.Random], Seed]:
    def build(generator: random.Random) -> Seed:
        secret = make(generator)
        return Seed(name, template.format(secret=secret), secret)

    return build


def _pem(generator: random.Random) -> Seed:
    body = base64.b64encode(generator.randbytes(300)).decode()
    lines = "\n".join(body[start : start + 64] for start in range(0, len(body), 64))
    return Seed(
        "pem rsa private key",
        f"-----BEGIN RSA PRIVATE KEY-----\n{lines}\n-----END RSA PRIVATE KEY-----",
        lines,
    )


def _jwt(generator: random.Random) -> Seed:
    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    payload = part(b'{"sub":"' + _pick(generator, ALNUM, 16).encode() + b'","iat":1700000000}')
    header = part(b'{"alg":"HS256","typ":"JWT"}')
    token = f"{header}.{payload}.{part(generator.randbytes(32))}"
    return Seed("jwt", token, token)


FORMATS: tuple[Callable[[random.Random], Seed], ...] = (
    _whole("aws access key id", lambda g: "AKIA" + _pick(g, UPPER_DIGITS, 16)),
    _inside(
        "aws secret access key", "aws_secret_access_key = {secret}", lambda g: _pick(g, ALNUM + "/+", 40)
    ),
    _whole("github classic token", lambda g: "ghp_" + _pick(g, ALNUM, 36)),
    _whole("github oauth token", lambda g: "gho_" + _pick(g, ALNUM, 36)),
    _whole("github app installation token", lambda g: "ghs_" + _pick(g, ALNUM, 36)),
    _whole("github user-to-server token", lambda g: "ghu_" + _pick(g, ALNUM, 36)),
    _whole("github refresh token", lambda g: "ghr_" + _pick(g, ALNUM, 76)),
    _whole(
        "github fine-grained token",
        lambda g: "github_pat_11" + _pick(g, UPPER_DIGITS, 20) + "_" + _pick(g, ALNUM, 59),
    ),
    _whole("gitlab personal token", lambda g: "glpat-" + _pick(g, URLSAFE, 20)),
    _whole("gitlab runner token", lambda g: "glrt-" + _pick(g, URLSAFE, 20)),
    _whole(
        "slack bot token",
        lambda g: f"xoxb-{g.randrange(10**11, 10**12)}-{g.randrange(10**12, 10**13)}-{_pick(g, ALNUM, 24)}",
    ),
    _whole(
        "slack user token",
        lambda g: (
            f"xoxp-{g.randrange(10**11, 10**12)}-{g.randrange(10**11, 10**12)}-{_pick(g, LOWER_HEX, 32)}"
        ),
    ),
    _inside(
        "slack webhook",
        "https://hooks.slack.com/services/{secret}",
        lambda g: f"T{_pick(g, UPPER_DIGITS, 10)}/B{_pick(g, UPPER_DIGITS, 10)}/{_pick(g, ALNUM, 24)}",
    ),
    _whole("google api key", lambda g: "AIza" + _pick(g, URLSAFE, 35)),
    _whole("google oauth client secret", lambda g: "GOCSPX-" + _pick(g, URLSAFE, 28)),
    _whole("google oauth access token", lambda g: "ya29." + _pick(g, URLSAFE, 120)),
    _inside(
        "azure storage account key",
        "DefaultEndpointsProtocol=https;AccountName=trainingdata;AccountKey={secret};EndpointSuffix=core.windows.net",
        lambda g: base64.b64encode(g.randbytes(64)).decode(),
    ),
    _inside(
        "azure sas url",
        "https://trainingdata.blob.core.windows.net/ckpt?sv=2022-11-02&ss=b&srt=co&sp=rl&sig={secret}",
        lambda g: (
            base64.b64encode(g.randbytes(32))
            .decode()
            .replace("+", "%2B")
            .replace("/", "%2F")
            .replace("=", "%3D")
        ),
    ),
    _whole(
        "azure ad client secret",
        lambda g: _pick(g, ALNUM, 3) + str(g.randrange(10)) + "Q~" + _pick(g, ALNUM + "_~.-", 34),
    ),
    _whole("stripe live secret key", lambda g: "sk_live_" + _pick(g, ALNUM, 24)),
    _whole("stripe restricted key", lambda g: "rk_live_" + _pick(g, ALNUM, 24)),
    _whole("openai project key", lambda g: "sk-proj-" + _pick(g, URLSAFE, 48)),
    _whole("openai legacy key", lambda g: "sk-" + _pick(g, ALNUM, 20) + "T3BlbkFJ" + _pick(g, ALNUM, 20)),
    _whole("anthropic api key", lambda g: "sk-ant-api03-" + _pick(g, URLSAFE, 93) + "AA"),
    _whole("hugging face token", lambda g: "hf_" + _pick(g, ALNUM, 34)),
    _whole("nvidia ngc api key", lambda g: "nvapi-" + _pick(g, URLSAFE, 64)),
    _jwt,
    _pem,
    _inside(
        "basic-auth url", "https://trainer:{secret}@registry.example.com/v2/", lambda g: _pick(g, ALNUM, 18)
    ),
    _inside("password assignment", "password={secret}", lambda g: _pick(g, ALNUM, 14)),
    _inside("token assignment", "token: {secret}", lambda g: _pick(g, ALNUM, 22)),
    _inside("api key flag", "--api-key={secret}", lambda g: _pick(g, ALNUM, 26)),
    _inside("bearer header", "Authorization: Bearer {secret}", lambda g: _pick(g, URLSAFE, 40)),
    _whole("npm token", lambda g: "npm_" + _pick(g, ALNUM, 36)),
    _whole("pypi token", lambda g: "pypi-AgEIcHlwaS5vcmc" + _pick(g, URLSAFE, 80)),
    _whole("docker hub token", lambda g: "dckr_pat_" + _pick(g, URLSAFE, 27)),
    _whole("sendgrid key", lambda g: "SG." + _pick(g, URLSAFE, 22) + "." + _pick(g, URLSAFE, 43)),
    _whole("vault token", lambda g: "hvs." + _pick(g, URLSAFE, 90)),
    _whole("telegram bot token", lambda g: f"{g.randrange(10**9, 10**10)}:" + _pick(g, URLSAFE, 35)),
    _whole("databricks token", lambda g: "dapi" + _pick(g, LOWER_HEX, 32)),
    _whole("digitalocean token", lambda g: "dop_v1_" + _pick(g, LOWER_HEX, 64)),
    _whole(
        "kubernetes bootstrap token",
        lambda g: (
            _pick(g, string.ascii_lowercase + string.digits, 6)
            + "."
            + _pick(g, string.ascii_lowercase + string.digits, 16)
        ),
    ),
    _whole("random key material", lambda g: base64.b64encode(g.randbytes(36)).decode()),
    _inside("client secret in ini", "client_secret = {secret}", lambda g: _pick(g, LOWER_HEX, 32)),
)


def seeds(seed: int = 20261202) -> list[Seed]:
    generator = random.Random(seed)
    return [make(generator) for make in FORMATS]


def fragments(secret: str, size: int = 8) -> set[str]:
    """Every `size`-character piece of a secret (the leak test looks for each)."""
    return {secret[start : start + size] for start in range(len(secret) - size + 1)}


def leaks(text: str, planted: list[Seed], size: int = 8) -> list[tuple[str, str]]:
    """(format, piece) for every seeded secret, or 8-character piece of one, found in `text`."""
    pieces: dict[str, str] = {}
    for seed in planted:
        for piece in fragments(seed.secret, size):
            pieces.setdefault(piece, seed.format)
    found: dict[str, str] = {}
    for start in range(len(text) - size + 1):
        piece = text[start : start + size]
        if piece in pieces:
            found.setdefault(piece, pieces[piece])
    return sorted((name, piece) for piece, name in found.items())
