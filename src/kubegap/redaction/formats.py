"""The credential formats kubegap recognises by shape alone: one row each, in one table.

Why our own table and not a detector library: detect-secrets (Apache-2.0) was measured as the
candidate. Its plugins cover AWS, Azure storage, GitHub, GitLab, Slack, Stripe, OpenAI, JWT, PEM,
npm, PyPI, SendGrid, Twilio, Discord, Telegram, Square, Mailchimp and more, but not Google API
keys, Anthropic, Hugging Face, Azure SAS, NVIDIA or Vault tokens; it reports secrets per line
rather than their spans (we must replace the value inside a longer string), keeps global settings,
and several of its patterns backtrack on long runs. The rows below follow the providers' documented
formats; public rule sets (gitleaks, trufflehog, detect-secrets) served as a checklist of shapes.

A row is `glued` when its prefix is distinctive enough to be found inside a longer word: after an
escape (`\\nghp_...` in a JSON string), after a name (`tokenghp_...`), after a typo. Short or common
prefixes (`sk-`, `EAAA`, `sig=`) only count at a word start, and several bodies must hold a digit, so
that `task-runner-for-the-cluster` stays a name.

Linear time (see `detectors.py`): every body is bounded or possessive, and a row whose unbounded
run must be followed by more (a JWT's dots) starts only where a run of its characters starts.
Speed: every row but two begins with a literal character, so the engine jumps from one possible
first character to the next instead of trying every row at every position; a format with no fixed
prefix is found at its distinctive middle (`NRAL`, `Q~`, `.atlasv1.`) and hides what precedes it.
"""

from __future__ import annotations

from dataclasses import dataclass

REDACTED = "[REDACTED]"


@dataclass(frozen=True)
class Detector:
    """One token format: its name (for tests and docs), a pattern, and what replaces a match.

    `start` says where a match may begin: "word" (a fixed prefix at a word start), "glued" (a
    distinctive prefix, also inside a longer word) or "shape" (the pattern anchors itself). Word and
    glued patterns begin with a literal character. `keep` leading characters of a match stay
    (`AccountKey=`); `back` characters before it, all of `back_chars`, are hidden with it.
    """

    name: str
    pattern: str
    replacement: str = REDACTED  # for the context formats, which substitute groups
    start: str = "shape"
    keep: int = 0
    back: int = 0
    back_chars: str = ""

    @property
    def lead(self) -> str:
        """The literal first character of a word or glued pattern (escaped when special)."""
        return self.pattern[:2] if self.pattern.startswith("\\") else self.pattern[:1]

    @property
    def full_pattern(self) -> str:
        """The pattern with its word-start test, which follows the first character so that the
        pattern still begins with a literal."""
        if self.start != "word":
            return self.pattern
        lead = self.lead
        return f"{lead}(?<![A-Za-z0-9]{lead}){self.pattern[len(lead) :]}"


# Token characters of the common URL-safe alphabet.
T = r"A-Za-z0-9_\-"
END = rf"(?![{T}])"
_HEX = "0123456789abcdefABCDEF"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
# A body that holds a digit within its first characters (random tokens do; words and names rarely).
_DIGIT_SOON = r"(?=[A-Za-z_\-]{0,24}+[0-9])"


def _prefixed(name: str, prefix: str, body: str, *, glued: bool = True, keep: int = 0) -> Detector:
    """A token that begins with a fixed prefix. Bodies are bounded or possessive and end the match,
    so a failed attempt costs at most the body's minimum length: the scan is linear."""
    return Detector(name, f"{prefix}{body}", start="glued" if glued else "word", keep=keep)


def _anchored(name: str, pattern: str, back: int, back_chars: str) -> Detector:
    """A format found at its distinctive middle: the pattern starts there, a look-behind checks what
    precedes it, and up to `back` characters of `back_chars` before it are hidden with it."""
    return Detector(name, pattern, start="glued", back=back, back_chars=back_chars)


def _shape(name: str, pattern: str) -> Detector:
    """A format that anchors itself with its own look-behind (a JWT, a Sentry DSN key)."""
    return Detector(name, pattern)


_KEY_BLOCKS: tuple[Detector, ...] = (
    # Everything from the BEGIN line to the END line (PGP armour headers, encrypted-PEM headers and
    # `\n` escapes included); without an END line, up to the next `--` (a YAML document separator).
    _prefixed(
        "private key block",
        "-----BEGIN",
        r"[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!-))*+"
        r"(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?",
    ),
    _prefixed("putty private key", "Private-Lines: *", r"\d{1,4}(?:[A-Za-z0-9+/=\s\\])*+"),
    _prefixed("age secret key", "AGE-SECRET-KEY-1", r"[0-9A-Z]{58}"),
    # Password hashes (htpasswd, /etc/shadow, bcrypt): crackable, so never shown.
    _prefixed("bcrypt hash", r"\$2[abxy]?\$", r"[0-9]{2}\$[./A-Za-z0-9]{53}"),
    _prefixed("md5-crypt hash", r"\$(?:apr1|1)\$", r"[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"),
    _prefixed(
        "sha-crypt hash", r"\$[56]\$", r"(?:rounds=[0-9]{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"
    ),
    _prefixed("ldap sha hash", r"\{S?SHA(?:256|512)?\}", r"[A-Za-z0-9+/]{20,}+={0,2}"),
)

_CLOUD: tuple[Detector, ...] = (
    _prefixed("aws access key id", r"A(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA)", r"[A-Z0-9]{16}(?![A-Za-z0-9])"),
    _prefixed("aws session token", r"IQoJb3JpZ2luX2Vj", r"[A-Za-z0-9+/=]{40,}+"),
    _prefixed("aws session token (older)", r"FwoGZXIvYXdzE", r"[A-Za-z0-9+/=]{40,}+"),
    _prefixed("aws bedrock api key", r"ABSK", r"[A-Za-z0-9+/]{100,}+={0,2}"),
    _prefixed("google api key", r"AIza", rf"[{T}]{{35}}{END}"),
    _prefixed("google oauth client secret", r"GOCSPX-", rf"[{T}]{{20,}}+"),
    _prefixed("google oauth access token", r"ya29\.", r"[A-Za-z0-9_\-.]{20,}+"),
    _prefixed("google oauth refresh token", r"1//0", rf"[{T}]{{30,}}+"),
    _prefixed("azure storage account key", "AccountKey=", r"[A-Za-z0-9+/=]{20,}+", glued=False, keep=11),
    _prefixed("azure shared access key", "SharedAccessKey=", r"[A-Za-z0-9+/=]{20,}+", glued=False, keep=16),
    _prefixed("azure sas signature", "sig=", r"[A-Za-z0-9%+/=]{16,}+", glued=False, keep=4),
    # Three characters and a digit before `Q~`: found at the `Q~`, inside a longer run too.
    _anchored(
        "azure ad client secret",
        r"Q(?<=[A-Za-z0-9_~.\-]{3}[0-9]Q)~[A-Za-z0-9_~.\-]{31,34}+",
        4,
        _ALNUM + "_~.-",
    ),
    _prefixed("alibaba access key id", r"LTAI", r"[A-Za-z0-9]{20}" + END),
    _prefixed("digitalocean token", r"do[opr]_v1_", r"[a-f0-9]{64}"),
    _prefixed("cloudflare origin ca key", r"v1\.0-", r"[a-f0-9]{24}-[a-f0-9]{146}"),
    _prefixed("databricks token", r"dapi", r"[a-f0-9]{32}(?:-[0-9])?" + END),
    _prefixed("heroku api key", r"HRKU-AA", rf"[{T}]{{58}}"),
    _prefixed("fly.io token", r"f(?:o1|m[12][ar]?)_", r"[A-Za-z0-9+/_\-]{43,}+={0,3}"),
    _prefixed("openshift token", r"sha256~", rf"[{T}]{{43}}"),
    _prefixed("tailscale key", r"tskey-(?:auth|api|client|scim|webhook)-", rf"[{T}]{{20,}}+"),
)

_CODE_HOSTING: tuple[Detector, ...] = (
    _prefixed("github token", r"gh[pousr]_", r"[A-Za-z0-9_]{30,255}+"),
    _prefixed("github fine-grained token", r"github_pat_", r"[A-Za-z0-9_]{22,255}+"),
    _prefixed(
        "gitlab token", r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct|ddt|wt)-", rf"[{T}.]{{20,}}+"
    ),
    _prefixed("gitlab runner registration token", r"GR1348941", rf"[{T}]{{20,}}+"),
    _prefixed("atlassian token", r"ATATT3", r"[A-Za-z0-9_=\-]{60,}+"),
    _prefixed("npm token", r"npm_", r"[A-Za-z0-9]{36,}+"),
    _prefixed("pypi token", r"pypi-AgE", rf"[{T}]{{50,}}+"),
    _prefixed("rubygems token", r"rubygems_", r"[a-f0-9]{48}"),
    _prefixed("docker hub token", r"dckr_pat_", rf"[{T}]{{20,}}+"),
    _prefixed("jfrog reference token", r"cmVmdGtu", r"[A-Za-z0-9]{56,}+"),
    _prefixed("jfrog api key", r"AKCp", r"[A-Za-z0-9]{60,}+"),
    _prefixed("sonarqube token", r"sq[pua]_", r"[a-f0-9]{40}"),
    _prefixed("buildkite token", r"bkua_", r"[a-f0-9]{40}"),
    _prefixed("circleci token", r"CCIPAT_", rf"[{T}]{{20,}}+"),
    _prefixed("pulumi token", r"pul-", r"[a-f0-9]{40}"),
    # Fourteen characters before `.atlasv1.`: found at the dot.
    _anchored("terraform cloud token", rf"\.(?<=[A-Za-z0-9]{{14}}\.)atlasv1\.[{T}]{{60,}}+", 14, _ALNUM),
    _prefixed("vault token", r"hv[sbr]\.", rf"[{T}]{{24,}}+"),
    _prefixed("doppler token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.", r"[A-Za-z0-9]{40,}+"),
    _prefixed("infracost token", r"ico-", r"[A-Za-z0-9]{32}"),
    _prefixed("prefect token", r"pnu_", r"[A-Za-z0-9]{36}"),
    _prefixed("planetscale token", r"pscale_(?:tkn|oauth|pw)_", r"[A-Za-z0-9_=.\-]{32,64}"),
    _prefixed("1password service account token", r"ops_eyJ", r"[A-Za-z0-9+/]{100,}+={0,3}"),
    _prefixed(
        "1password secret key", r"A3-", r"[A-Z0-9]{6}-[A-Z0-9]{5,11}(?:-[A-Z0-9]{5}){3,4}", glued=False
    ),
    _prefixed("postman key", r"PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"),
    _prefixed("linear key", r"lin_api_", r"[A-Za-z0-9]{40}"),
)

_CHAT_AND_SAAS: tuple[Detector, ...] = (
    _prefixed("slack token", r"xox[abposre]-", rf"[{T}]{{10,}}+"),
    _prefixed("slack config token", r"xoxe\.xox[bp]-", rf"[{T}]{{20,}}+"),
    _prefixed("slack app token", r"xapp-", rf"[{T}]{{10,}}+"),
    _prefixed(
        "slack webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/", r"[A-Za-z0-9_/+]{20,}+"
    ),
    _prefixed("discord webhook", r"discord(?:app)?\.com/api/webhooks/", r"[0-9]{5,30}/[A-Za-z0-9_\-]{20,}+"),
    _prefixed("teams webhook", r"webhook\.office\.com/webhookb2/", r"[A-Za-z0-9@/\-]{40,}+"),
    *(
        _prefixed(f"discord bot token ({lead})", lead, rf"[{T}]{{23,25}}\.[{T}]{{6}}\.[{T}]{{27,}}+")
        for lead in "MNO"
    ),
    # 8 to 10 digits before `:` and 35 characters: found at the colon.
    _anchored("telegram bot token", rf":(?<=[0-9]{{8}}:)(?<![0-9]{{11}}:)[{T}]{{35}}{END}", 10, "0123456789"),
    _prefixed("stripe secret key", r"sk_(?:live|test|prod)_", r"[A-Za-z0-9]{16,}+"),
    _prefixed("stripe restricted key", r"rk_(?:live|test|prod)_", r"[A-Za-z0-9]{16,}+"),
    _prefixed("stripe webhook secret", r"whsec_", r"[A-Za-z0-9]{24,}+"),
    _prefixed("square token", r"sq0(?:csp|atp)-", rf"[{T}]{{22,}}+"),
    _prefixed("square access token", r"EAAA", rf"[{T}]{{22,}}+", glued=False),
    _prefixed("shopify token", r"shp(?:at|ca|pa|ss)_", r"[a-fA-F0-9]{32}"),
    _prefixed("sendgrid key", r"SG\.", rf"[{T}]{{20,24}}\.[{T}]{{40,}}+"),
    _prefixed("brevo key", r"xkeysib-", r"[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    _prefixed("twilio api key", r"SK", rf"[0-9a-fA-F]{{32}}{END}"),
    # 32 hex characters before `-us<n>`: found at the dash.
    _anchored("mailchimp key", rf"-(?<=[0-9a-f]{{32}}-)us[0-9]{{1,2}}{END}", 32, _HEX),
    _prefixed("mailgun key", r"key-", r"[a-f0-9]{32}" + END),
    _prefixed("mailgun public key", r"pubkey-", r"[a-f0-9]{32}" + END),
    _prefixed("mapbox secret token", r"sk\.eyJ", rf"[{T}]{{40,}}+\.[{T}]{{20,}}+"),
    _prefixed("notion token", r"ntn_", rf"(?=[A-Za-z]{{0,8}}[0-9])[A-Za-z0-9]{{40,46}}{END}"),
    _prefixed("notion legacy token", r"secret_", rf"(?=[A-Za-z]{{0,8}}[0-9])[A-Za-z0-9]{{40,46}}{END}"),
    _prefixed("new relic key", r"NR(?:AK|II|JS|AA)-", r"[A-Za-z0-9\-]{19,32}"),
    # 36 hex characters before `NRAL`: found at the N.
    _anchored("new relic license key", rf"N(?<=[a-fA-F0-9]{{36}}N)RAL{END}", 36, _HEX),
    _prefixed("grafana token", r"gl(?:sa|c)_", r"[A-Za-z0-9_+/=]{32,}+"),
    _prefixed("grafana legacy api key", r"eyJrIjoi", r"[A-Za-z0-9]{40,}+={0,3}"),
    _prefixed("sentry token", r"sntry[us]_", r"[A-Za-z0-9+/_=]{40,}+"),
    _prefixed("dynatrace token", r"dt0c01\.", r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    _prefixed("datadog client token", r"pub", r"[a-f0-9]{32}" + END, glued=False),
)

_AI: tuple[Detector, ...] = (
    _prefixed(
        "openai or anthropic key (distinct prefix)",
        r"sk-(?:proj|svcacct|admin|None|ant-(?:api|admin|oat|sid)[0-9]{2}|or-v1)-",
        rf"[{T}]{{20,}}+",
    ),
    _prefixed("deepseek key", r"sk-", rf"[a-f0-9]{{32}}{END}"),
    _prefixed("openai-compatible key", r"sk-", _DIGIT_SOON + rf"[{T}]{{20,}}+", glued=False),
    _prefixed("hugging face token", r"hf_", r"(?=[A-Za-z]{0,33}[0-9])[A-Za-z0-9]{30,}+"),
    _prefixed("hugging face org token", r"api_org_", r"(?=[A-Za-z]{0,33}[0-9])[A-Za-z0-9]{30,}+"),
    _prefixed("nvidia ngc api key", r"nvapi-", rf"[{T}]{{40,}}+"),
    _prefixed("replicate token", r"r8_", r"[A-Za-z0-9]{30,}+"),
    _prefixed("groq key", r"gsk_", r"[A-Za-z0-9]{40,}+"),
    _prefixed("xai key", r"xai-", r"[A-Za-z0-9]{60,}+"),
    _prefixed("perplexity key", r"pplx-", r"[A-Za-z0-9]{40,}+"),
    _prefixed("together key", r"tgp_v1_", rf"[{T}]{{40,}}+"),
    _prefixed("fireworks key", r"fw_", r"(?=[A-Za-z]{0,20}[0-9])[A-Za-z0-9]{20,}+"),
    _prefixed("cerebras key", r"csk-", r"[a-z0-9]{40,}+"),
    _prefixed("pinecone key", r"pcsk_", rf"[{T}]{{40,}}+"),
    _prefixed("langsmith key", r"lsv2_(?:pt|sk)_", r"[a-f0-9]{32}_[a-f0-9]{10}"),
    _prefixed("anyscale key", r"esecret_", r"[A-Za-z0-9]{20,}+"),
    _prefixed("weights and biases local key", r"local-", r"[a-f0-9]{40}" + END),
)

_GENERIC: tuple[Detector, ...] = (
    # Six characters, a dot, sixteen: found at the dot, never inside a longer name.
    _anchored(
        "kubernetes bootstrap token",
        r"\.(?<=(?<![A-Za-z0-9.])[a-z0-9]{6}\.)(?=[a-z]{0,15}[0-9])[a-z0-9]{16}(?![A-Za-z0-9.])",
        6,
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    # A JWT, also glued after up to 32 letters (`tokeneyJ...`); the letters stay, the token goes.
    _shape("jwt", rf"(?<![{T}])(?P<keep>[A-Za-z]{{0,32}}?)eyJ[{T}]{{5,}}+\.[{T}]{{5,}}+\.[{T}]*+"),
    _shape("sentry dsn key", r"(?<=://)[0-9a-f]{32}(?=@)"),
)

TOKEN_FORMATS: tuple[Detector, ...] = (
    *_KEY_BLOCKS,
    *_CLOUD,
    *_CODE_HOSTING,
    *_CHAT_AND_SAAS,
    *_AI,
    *_GENERIC,
)
