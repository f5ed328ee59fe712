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
    "TOKEN TOKENS PASSWORD PASSWORDS PASSWD PASSPHRASE PWD PW SECRET SECRETS CREDENTIAL "
    "CREDENTIALS CREDS AUTH OAUTH AUTHORIZATION APIKEY ACCESSKEY SECRETKEY PRIVATEKEY "
    "AUTHTOKEN ACCESSTOKEN COOKIE SIGNATURE SAS DSN STOREPASS KEYPASS SRCSTOREPASS DESTSTOREPASS "
    "SRCKEYPASS DESTKEYPASS PASSIN PASSOUT PAT"
)
# PASS is a password only as the last word (`--db-pass`, `REDIS_PASS`); `--pass-through` is not.
_LAST_SECRET_WORDS = _words("PASS")
_KEY_WORDS = frozenset({"KEY", "KEYS"})
# KEY is a credential only after one of these (API_KEY, SSH_KEY); topologyKey and a taint `key` are not.
_KEY_QUALIFIERS = _words(
    "API ACCESS SECRET PRIVATE SSH SSL TLS ENCRYPTION SIGNING MASTER LICENSE CLIENT APP "
    "SESSION WEBHOOK DEPLOY GPG PGP SHARED ROOT ADMIN SERVICE STORAGE ACCOUNT BOT DB DATABASE"
)
# TOKEN after these counts a language model's tokens (`--max-num-batched-tokens`, `prompt_tokens`).
_TOKEN_COUNT_WORDS = _words(
    "MAX MIN NUM TOTAL BATCHED NEW PROMPT COMPLETION OUTPUT INPUT GENERATED CONTEXT PREFILL DECODE"
)
# A last word that says the value is an identifier (container ids, hashes, images): shape rules for
# random strings are skipped there, known credential shapes still apply.
_IDENTIFIER_WORDS = _words(
    "ID IDS UID UIDS HASH DIGEST CHECKSUM SHA SHA1 SHA256 IMAGE VERSION REVISION COMMIT FINGERPRINT"
)
# A first word that says the value is a hash of something (`checksum/secret`): never the secret.
_DIGEST_WORDS = _words("CHECKSUM HASH DIGEST SHA SHA256")
_SECRET_SUFFIXES = ("PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY", "PW")
# A last word that says the value is a reference, a location or a setting, not the secret itself.
_REFERENCE_WORDS = _words(
    "FILE FILES PATH DIR NAME NAMES REF MODE TYPE URL ENDPOINT TTL ENABLED KUBECONFIG CONFIG PROVIDER "
    "PROVIDERS METHOD SCHEME STDIN SECONDS TIMEOUT EXPIRY EXPIRATION DURATION LENGTH LEN SIZE COUNT "
    "LIMIT LIFETIME PREFIX FORMAT POLICY"
)
# Two last words that name where a credential is kept (`passwordKey: password` in a CRD names the
# key inside a Secret, `apiKeyKey: apiKey` likewise).
_KEY_REFERENCES = {("PASSWORD", "KEY"), ("PASSWD", "KEY"), ("KEY", "KEY"), ("USERNAME", "KEY")}

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
    "PW",
    "PAT",
)


def is_secret_name(name: str) -> bool:
    """True when a name (env var, dict key, flag) says its value is a credential."""
    return _secret_kind(name) != ""


def is_weak_secret_name(name: str) -> bool:
    """True when only a last PASS makes the name secret (`pass`, `--db-pass`): a number under it is a
    count (`counts: {pass: 12}`), not a password."""
    return _secret_kind(name) == "weak"


@lru_cache(maxsize=8192)
def _secret_kind(name: str) -> str:
    """ "strong", "weak" (a last PASS only) or "" (not secret)."""
    if "/" in name:
        prefix, _, last = name.rpartition("/")
        if "." in prefix.split("/")[0]:
            # `example.com/api-key` is a label key: its last part tells; a kind key such as
            # `rbac.authorization.k8s.io/ClusterRoleBinding` names a resource.
            return _secret_kind(last) if last else ""
    upper = name[:256].upper()
    if not any(stem in upper for stem in _SECRET_STEMS):
        return ""
    words = name_words(name)
    if not words or words[-1] in _REFERENCE_WORDS or words[0] in _DIGEST_WORDS:
        return ""
    if tuple(words[-2:]) in _KEY_REFERENCES:
        return ""
    counts_tokens = any(word in _TOKEN_COUNT_WORDS for word in words)
    for index, word in enumerate(words):
        if counts_tokens and word.startswith("TOKEN"):
            continue
        if word in _SECRET_WORDS or word.endswith(_SECRET_SUFFIXES):
            return "strong"
        if word in _KEY_WORDS and index > 0 and words[index - 1] in _KEY_QUALIFIERS:
            return "strong"
    return "weak" if words[-1] in _LAST_SECRET_WORDS else ""


@lru_cache(maxsize=8192)
def name_kind(name: str) -> str:
    """ "secret", "weak" (a last PASS), "key" (key-like only) or "": one cached answer for free text,
    which asks it of every `name=` and `name:` it holds."""
    kind = _secret_kind(name)
    if kind:
        return "secret" if kind == "strong" else kind
    return "key" if is_key_name(name) else ""


@lru_cache(maxsize=8192)
def is_key_name(name: str) -> bool:
    """True when a name ends in KEY or TOKEN whatever qualifies it (`MISTRAL_KEY`, `datadog-key`):
    not enough alone (`topologyKey`, `cache-key`), but a value that looks like key material under
    such a name is one."""
    upper = name[-64:].upper()
    if "KEY" not in upper and "TOKEN" not in upper:
        return False
    words = name_words(name.rpartition("/")[2])
    return bool(words) and words[-1] in {"KEY", "KEYS", "TOKEN", "APIKEY"} and words[0] not in _DIGEST_WORDS


@lru_cache(maxsize=8192)
def is_identifier_name(name: str) -> bool:
    words = name_words(name)
    return bool(words) and (words[-1] in _IDENTIFIER_WORDS or words[0] in _DIGEST_WORDS)


# A Kubernetes object name made of words (`model-pull-secret`, `hub-auth`, `registry-creds-v2`): each
# part all letters, or short. A random value (a UUID, a generated password) is not read as one.
_OBJECT_NAME = re.compile(r"(?<![a-z0-9.\-])[a-z]++(?:[-.](?:[a-z]++|[a-z0-9]{1,4}+)(?![a-z0-9]))++")
# `clientSecret`, `webhookSecret`, `jwtSecret` hold the secret itself in most configurations.
_VALUE_SECRET_QUALIFIERS = _words(
    "CLIENT WEBHOOK JWT SHARED SIGNING APP API COOKIE SESSION ENCRYPTION HMAC OAUTH CONSUMER ACCESS "
    "APPLICATION BOOTSTRAP TOKEN ADMIN ROOT MASTER"
)


def names_a_secret_object(name: str, value: str) -> bool:
    """`authSecret: model-pull-secret`, `pullSecret: registry-creds`: a custom resource's field that names a
    Secret object (kubegap never reads Secrets), not a secret value. Only a camelCase field ending in
    `Secret` whose value is an object name of two or more word parts counts; `clientSecret` and
    `CLIENT_SECRET` never do."""
    camel = name[:1].islower() and name.isalnum() and name.endswith("Secret")
    if not (camel and len(value) <= 253 and _OBJECT_NAME.fullmatch(value)):
        return False
    words = name_words(name)
    return len(words) < 2 or words[-2] not in _VALUE_SECRET_QUALIFIERS
