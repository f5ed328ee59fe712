"""Names that say their value is a credential: env vars, dict keys, flags, `name=value` in free text.

`API_KEY`, `HF_TOKEN`, `dbPassword`, `AWS_SECRET_ACCESS_KEY` are secret names; `NCCL_IB_HCA`,
`TOKENIZERS_PARALLELISM`, `secretName`, `tls-private-key-file` and a bare `key` (a taint or label key)
are not. The words are kept here, apart from the token shapes, because they answer another question:
not "does this look like a key" but "was this stored as one".
"""

from __future__ import annotations

import re
from functools import lru_cache


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that make a name secret on their own.
_SECRET_WORDS = _words(
    "TOKEN TOKENS PASSWORD PASSWORDS PASSWD PASSPHRASE PWD SECRET SECRETS CREDENTIAL "
    "CREDENTIALS CREDS AUTH OAUTH AUTHORIZATION PRIVATE APIKEY ACCESSKEY SECRETKEY PRIVATEKEY "
    "AUTHTOKEN ACCESSTOKEN COOKIE SIGNATURE SAS DSN"
)
_KEY_WORDS = frozenset({"KEY", "KEYS"})
# KEY is a credential only after one of these (API_KEY, SSH_KEY); topologyKey and a taint `key` are not.
_KEY_QUALIFIERS = _words(
    "API ACCESS SECRET PRIVATE SSH SSL TLS ENCRYPTION SIGNING MASTER LICENSE CLIENT APP "
    "SESSION WEBHOOK DEPLOY GPG PGP SHARED ROOT ADMIN SERVICE STORAGE ACCOUNT BOT DB DATABASE"
)
# A last word that says the value is an identifier (container ids, hashes): shape rules for random
# strings are skipped there, known credential shapes still apply.
_IDENTIFIER_WORDS = _words("ID IDS UID UIDS HASH DIGEST CHECKSUM SHA SHA256")
_SECRET_SUFFIXES = ("PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY")
# A last word that says the value is a reference or a location, not the secret itself.
_REFERENCE_WORDS = _words("FILE FILES PATH DIR NAME NAMES REF MODE TYPE URL ENDPOINT TTL ENABLED")

_CAMEL_BOUNDARY = re.compile(r"([a-z0-9])([A-Z])")
_WORD_SPLIT = re.compile(r"[^A-Z0-9]+")


def name_words(name: str) -> list[str]:
    """`awsSecretAccessKey`, `AWS_SECRET_ACCESS_KEY`, `--aws-secret` -> upper-case words."""
    spaced = _CAMEL_BOUNDARY.sub(r"\1_\2", name[:256])
    return [word for word in _WORD_SPLIT.split(spaced.upper()) if word]


# Every secret word above contains one of these; a name holding none is answered without splitting
# it into words (free text has thousands of `name:` and `name=` pairs, nearly all harmless).
_SECRET_STEMS = (
    "TOKEN",
    "PASS",
    "PWD",
    "SECRET",
    "CRED",
    "AUTH",
    "PRIVATE",
    "KEY",
    "COOKIE",
    "SIGNATURE",
    "SAS",
    "DSN",
)


@lru_cache(maxsize=8192)
def is_secret_name(name: str) -> bool:
    """True when a name (env var, dict key, flag) says its value is a credential."""
    if "/" in name and "." in name.split("/")[0]:
        return False  # a kind key such as `rbac.authorization.k8s.io/ClusterRoleBinding` names a resource
    upper = name[:256].upper()
    if not any(stem in upper for stem in _SECRET_STEMS):
        return False
    words = name_words(name)
    if not words or words[-1] in _REFERENCE_WORDS:
        return False
    for index, word in enumerate(words):
        if word in _SECRET_WORDS or word.endswith(_SECRET_SUFFIXES):
            return True
        if word in _KEY_WORDS and index > 0 and words[index - 1] in _KEY_QUALIFIERS:
            return True
    return False


def is_identifier_name(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[-1] in _IDENTIFIER_WORDS
