"""The token formats kubegap recognises by shape, one row each, in one table.

Why our own table and not a detector library: detect-secrets (Apache-2.0) was measured as the
candidate. Its plugins cover AWS, Azure storage, GitHub, GitLab, Slack, Stripe, OpenAI, JWT, PEM,
npm, PyPI, SendGrid, Twilio, Discord, Telegram, Square, Mailchimp and more, but not Google API
keys, Anthropic, Hugging Face, Azure SAS, NVIDIA or Vault tokens; it reports secrets per line
rather than their spans (we must replace the value inside a longer string), keeps global settings,
and several of its patterns backtrack on long runs. The formats below are the union of its plugins,
the providers' documented prefixes, and what GPU clusters carry (NGC, Hugging Face, W&B by name).

Every pattern runs in linear time, which `tests/checker/test_redaction_linear.py` proves on 1 MB
adversarial strings: each one starts with a look-behind that refuses to start inside a run of the
characters its body consumes, so a long run is scanned from its start only, never from each of its
positions (the quadratic case a 200,000-letter string once hit); bodies use possessive quantifiers
where a failed match could otherwise backtrack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REDACTED = "[REDACTED]"


@dataclass(frozen=True)
class Detector:
    """One token format: its name (for tests and docs), a pattern, and what replaces a match."""

    name: str
    pattern: str
    replacement: str = REDACTED
    # True when the pattern may only start where a run of token characters starts; those share one
    # look-behind in the combined pattern, so the inside of a long run is refused at one test.
    token_start: bool = False

    @property
    def full_pattern(self) -> str:
        return f"{_START}(?:{self.pattern})" if self.token_start else self.pattern


# Token characters of the common URL-safe alphabet.
_T = r"A-Za-z0-9_\-"
_END = rf"(?![{_T}])"
# A prefixed token starts at a word boundary ("team-hf_..." is still a token). Its body is either
# bounded or ends the match, so a failed attempt costs at most the body's minimum length and the
# scan stays linear; a pattern whose unbounded run must be followed by more (a JWT's dots) instead
# refuses to start inside a run of its body's characters.
_START = r"(?<![A-Za-z0-9])"


def _prefixed(name: str, prefix: str, body: str) -> Detector:
    """A token that begins with a fixed prefix at a word boundary, its body possessive."""
    return Detector(name, f"{prefix}{body}", token_start=True)


TOKEN_FORMATS: tuple[Detector, ...] = (
    Detector(
        "pem private key",
        r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s\\:,.]|-(?!-))*+"
        r"(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?",
    ),
    Detector("putty private key", r"Private-Lines: *\d{1,4}(?:[A-Za-z0-9+/=\s\\])*+"),
    Detector(
        "aws access key id", r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"
    ),
    _prefixed("github token", r"gh[pousr]_", r"[A-Za-z0-9_]{30,255}+"),
    _prefixed("github fine-grained token", r"github_pat_", r"[A-Za-z0-9_]{22,255}+"),
    _prefixed("gitlab token", r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct|ddt)-", rf"[{_T}]{{20,}}+"),
    _prefixed("gitlab runner registration token", r"GR1348941", rf"[{_T}]{{20,}}+"),
    _prefixed("slack token", r"xox[abposre]-", rf"[{_T}]{{10,}}+"),
    _prefixed("slack app token", r"xapp-", rf"[{_T}]{{10,}}+"),
    Detector("slack webhook", r"hooks\.slack\.com/services/[A-Za-z0-9_/]{20,}+"),
    Detector("discord webhook", r"discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/[A-Za-z0-9_\-]{20,}+"),
    _prefixed("google api key", r"AIza", rf"[{_T}]{{35}}{_END}"),
    _prefixed("google oauth client secret", r"GOCSPX-", rf"[{_T}]{{20,}}+"),
    _prefixed("google oauth access token", r"ya29\.", r"[A-Za-z0-9_\-.]{20,}+"),
    _prefixed("google oauth refresh token", r"1//0", rf"[{_T}]{{30,}}+"),
    Detector(
        "azure storage account key",
        r"(?<![A-Za-z0-9])AccountKey=[A-Za-z0-9+/=]{20,}+",
        f"AccountKey={REDACTED}",
    ),
    Detector("azure sas signature", r"(?<![A-Za-z0-9_])sig=[A-Za-z0-9%+/=]{16,}+", f"sig={REDACTED}"),
    Detector(
        "azure ad client secret", r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}+"
    ),
    _prefixed("stripe secret key", r"(?:sk|rk)_(?:live|test)_", r"[A-Za-z0-9]{16,}+"),
    _prefixed("stripe webhook secret", r"whsec_", r"[A-Za-z0-9]{24,}+"),
    _prefixed("openai or anthropic key", r"sk-", rf"[{_T}]{{20,}}+"),
    _prefixed("hugging face token", r"(?:hf|api_org)_", r"[A-Za-z0-9]{30,}+"),
    _prefixed("nvidia ngc api key", r"nvapi-", rf"[{_T}]{{40,}}+"),
    _prefixed("replicate token", r"r8_", r"[A-Za-z0-9]{30,}+"),
    _prefixed("groq key", r"gsk_", r"[A-Za-z0-9]{40,}+"),
    _prefixed("xai key", r"xai-", r"[A-Za-z0-9]{60,}+"),
    _prefixed("perplexity key", r"pplx-", r"[A-Za-z0-9]{40,}+"),
    _prefixed("npm token", r"npm_", r"[A-Za-z0-9]{36,}+"),
    _prefixed("pypi token", r"pypi-AgE", rf"[{_T}]{{50,}}+"),
    _prefixed("docker hub token", r"dckr_pat_", rf"[{_T}]{{20,}}+"),
    _prefixed("sendgrid key", r"SG\.", rf"[{_T}]{{20,24}}\.[{_T}]{{40,}}+"),
    _prefixed("twilio api key", r"SK", rf"[0-9a-fA-F]{{32}}{_END}"),
    _prefixed("mailchimp key", r"", rf"[0-9a-f]{{32}}-us[0-9]{{1,2}}{_END}"),
    _prefixed("discord bot token", r"[MNO]", rf"[{_T}]{{23,25}}\.[{_T}]{{6}}\.[{_T}]{{27,}}+"),
    Detector("telegram bot token", rf"(?<![0-9]){r'[0-9]'}{{8,10}}:[{_T}]{{35}}{_END}"),
    _prefixed("square token", r"(?:sq0(?:csp|atp)-|EAAA)", rf"[{_T}]{{22,}}+"),
    _prefixed("shopify token", r"shp(?:at|ca|pa|ss)_", r"[a-fA-F0-9]{32}"),
    _prefixed("digitalocean token", r"do[opr]_v1_", r"[a-f0-9]{64}"),
    _prefixed("databricks token", r"dapi", r"[a-f0-9]{32}(?:-[0-9])?"),
    _prefixed("vault token", r"hv[sbr]\.", rf"[{_T}]{{24,}}+"),
    _prefixed("grafana token", r"(?:glsa|glc)_", r"[A-Za-z0-9_+/=]{32,}+"),
    _prefixed("atlassian token", r"ATATT3", r"[A-Za-z0-9_=\-]{60,}+"),
    _prefixed("postman key", r"PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"),
    _prefixed("new relic key", r"NRAK-", r"[A-Z0-9]{27}"),
    _prefixed("linear key", r"lin_api_", r"[A-Za-z0-9]{40}"),
    _prefixed("terraform cloud token", r"", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-]{60,}+"),
    Detector("age secret key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    Detector(
        "kubernetes bootstrap token",
        r"(?<![A-Za-z0-9.])[a-z0-9]{6}\.(?=[a-z]{0,15}[0-9])[a-z0-9]{16}(?![A-Za-z0-9.])",
    ),
    Detector("jwt", rf"(?<![{_T}])eyJ[{_T}]{{5,}}+\.[{_T}]{{5,}}+\.[{_T}]*+"),
    Detector("sentry dsn key", r"(?<=://)[0-9a-f]{32}(?=@)"),
)

# Formats that keep part of the match (the scheme and user of a URL, the word Bearer).
CONTEXT_FORMATS: tuple[Detector, ...] = (
    Detector(
        "authorization header",
        r"(?<![A-Za-z0-9_])(Bearer|Basic|Token)([ \t]++)[A-Za-z0-9._~+/=\-]{8,}+",
        r"\1\2" + REDACTED,
    ),
    Detector(
        "url with password",
        r"(?<![A-Za-z0-9+.\-])([A-Za-z][A-Za-z0-9+.\-]{0,30}://[^/\s:@\"'<>]{1,256}+):([^/\s@\"'<>]++)@",
        r"\1:" + REDACTED + "@",
    ),
)


def _combined(detectors: tuple[Detector, ...]) -> re.Pattern[str]:
    starting = "|".join(f"(?:{detector.pattern})" for detector in detectors if detector.token_start)
    others = [f"(?:{detector.pattern})" for detector in detectors if not detector.token_start]
    return re.compile("|".join([f"{_START}(?:{starting})", *others]))


# All plain formats as one alternation: one pass over a string instead of one per format.
TOKENS = _combined(TOKEN_FORMATS)
AUTHORIZATION = re.compile(CONTEXT_FORMATS[0].pattern, re.IGNORECASE)
URL_PASSWORD = re.compile(CONTEXT_FORMATS[1].pattern)


def all_patterns() -> dict[str, re.Pattern[str]]:
    """Every detector compiled on its own, by name (the linear-time test runs each)."""
    compiled = {detector.name: re.compile(detector.full_pattern) for detector in TOKEN_FORMATS}
    compiled["authorization header"] = AUTHORIZATION
    compiled["url with password"] = URL_PASSWORD
    compiled["all token formats"] = TOKENS
    return compiled
