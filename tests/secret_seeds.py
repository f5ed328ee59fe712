"""Seeded credentials for the leak tests: 100+ shapes, each a fresh random value in its real format.

Each shape gives the text placed in a field (the carrier: a token alone, `password=...`, a URL with
a password, a command line, a JSON document, a key block) and the secret inside it, the part that
must never leave kubegap. The values come from a seeded random source, so a run is repeatable but
no value is a well-known example a pattern could have been fitted to. The shapes follow the
providers' documented formats; besides the token formats they hold the carriers that once leaked:
an empty URL user, `/` in a URL password, `"password":"..."` inside a JSON string, a Go DSN, curl's
`-u`, `--db-pass`, `-p` after `sshpass`, `wandb login`, a 32-hex key beside a key-like name, and the
URL-encoded, hex-encoded, base64-encoded and glued-after-a-letter forms of other shapes.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
LOWER_HEX = "0123456789abcdef"
URLSAFE = ALNUM + "_-"
BASE64 = ALNUM + "+/"
CRYPT = ALNUM + "./"


@dataclass(frozen=True)
class Seed:
    format: str
    carrier: str  # what is written into the field
    secret: str  # what must not appear, nor any 8-character piece of it


Make = Callable[[random.Random], Seed]


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


def _hex(generator: random.Random, length: int) -> str:
    return _pick(generator, LOWER_HEX, length)


def _uuid(generator: random.Random) -> str:
    return "-".join(_hex(generator, size) for size in (8, 4, 4, 4, 12))


def _b64(generator: random.Random, size: int) -> str:
    return base64.b64encode(generator.randbytes(size)).decode()


def _whole(name: str, make: Callable[[random.Random], str]) -> Make:
    def build(generator: random.Random) -> Seed:
        token = make(generator)
        return Seed(name, token, token)

    return build


def _inside(name: str, template: str, make: Callable[[random.Random], str]) -> Make:
    def build(generator: random.Random) -> Seed:
        secret = make(generator)
        return Seed(name, template.replace("{secret}", secret), secret)

    return build


def _encoded(
    name: str,
    encode: Callable[[str], str],
    template: str,
    make: Callable[[random.Random], str],
    *,
    whole: bool,
) -> Make:
    """A carrier seen through an encoding. The secret is the encoded carrier (`whole`) when the encoding
    hides all of it (hex, base64), else the secret part, which URL encoding leaves as it is."""

    def build(generator: random.Random) -> Seed:
        secret = make(generator)
        carrier = encode(template.replace("{secret}", secret))
        return Seed(name, carrier, carrier if whole else secret)

    return build


def _glued(name: str, before: str, make: Callable[[random.Random], str]) -> Make:
    def build(generator: random.Random) -> Seed:
        token = make(generator)
        return Seed(name, before + token, token)

    return build


def _block(name: str, kind: str, size: int, headers: str = "") -> Make:
    def build(generator: random.Random) -> Seed:
        body = _b64(generator, size)
        lines = "\n".join(body[start : start + 64] for start in range(0, len(body), 64))
        carrier = f"-----BEGIN {kind}-----\n{headers}{lines}\n-----END {kind}-----"
        return Seed(name, carrier, lines)

    return build


def _part(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(
    name: str, header: dict[str, str], claims: Callable[[random.Random], dict[str, object]], size: int
) -> Make:
    def build(generator: random.Random) -> Seed:
        head = _part(json.dumps(header, separators=(",", ":")).encode())
        body = _part(json.dumps(claims(generator), separators=(",", ":")).encode())
        token = f"{head}.{body}.{_part(generator.randbytes(size))}"
        return Seed(name, token, token)

    return build


def _service_account_claims(generator: random.Random) -> dict[str, object]:
    return {
        "iss": "kubernetes/serviceaccount",
        "kubernetes.io/serviceaccount/namespace": "ml",
        "kubernetes.io/serviceaccount/secret.name": f"trainer-token-{_pick(generator, LOWER_DIGITS, 5)}",
        "kubernetes.io/serviceaccount/service-account.uid": _pick(generator, LOWER_HEX, 32),
        "sub": "system:serviceaccount:ml:trainer",
    }


def _gcp_private_key(generator: random.Random) -> Seed:
    body = _b64(generator, 120)
    lines = [body[start : start + 64] for start in range(0, len(body), 64)]
    key = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END PRIVATE KEY-----\\n"
    carrier = '{"type":"service_account","project_id":"train-4711","private_key":"' + key + '"}'
    return Seed("gcp service account private_key", carrier, lines[0])


def _teams_webhook(generator: random.Random) -> Seed:
    """The secret is the random tenant part; the literal `IncomingWebhook` is no secret."""
    secret = f"{_uuid(generator)}@{_uuid(generator)}"
    carrier = (
        f"https://contoso.webhook.office.com/webhookb2/{secret}/IncomingWebhook/{_hex(generator, 32)}"
        f"/{_uuid(generator)}"
    )
    return Seed("teams webhook", carrier, secret)


def _tunnel_token(generator: random.Random) -> str:
    document = {"a": _hex(generator, 32), "t": str(generator.getrandbits(128)), "s": _b64(generator, 32)}
    return base64.b64encode(json.dumps(document).encode()).decode()


def _docker_auth(generator: random.Random) -> str:
    return base64.b64encode(f"ci:{_pick(generator, ALNUM, 20)}".encode()).decode()


def _with_slash(generator: random.Random) -> str:
    while "/" not in (value := _pick(generator, BASE64, 24)) or value.startswith("/"):
        pass
    return value


def _pem_base64(generator: random.Random) -> str:
    body = _b64(generator, 180)
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n"
    return base64.b64encode(pem.encode()).decode()


_TOKENS: tuple[Make, ...] = (
    _whole("aws access key id", lambda g: "AKIA" + _pick(g, UPPER_DIGITS, 16)),
    _inside("aws secret access key", "aws_secret_access_key = {secret}", lambda g: _pick(g, BASE64, 40)),
    _whole("aws session token", lambda g: "IQoJb3JpZ2luX2VjE" + _pick(g, BASE64, 300)),
    _whole("aws bedrock api key", lambda g: "ABSK" + _pick(g, BASE64, 128)),
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
    _whole(
        "gitlab routable token",
        lambda g: "glpat-" + _pick(g, URLSAFE, 27) + ".01." + _pick(g, LOWER_DIGITS, 9),
    ),
    _whole("gitlab deploy token", lambda g: "gldt-" + _pick(g, URLSAFE, 20)),
    _whole("gitlab runner token", lambda g: "glrt-" + _pick(g, URLSAFE, 20)),
    _whole(
        "slack bot token",
        lambda g: f"xoxb-{g.randrange(10**11, 10**12)}-{g.randrange(10**12, 10**13)}-{_pick(g, ALNUM, 24)}",
    ),
    _whole(
        "slack user token",
        lambda g: f"xoxp-{g.randrange(10**11, 10**12)}-{g.randrange(10**11, 10**12)}-{_hex(g, 32)}",
    ),
    _whole(
        "slack app token",
        lambda g: f"xapp-1-A{_pick(g, UPPER_DIGITS, 10)}-{g.randrange(10**12, 10**13)}-{_hex(g, 64)}",
    ),
    _inside(
        "slack webhook",
        "https://hooks.slack.com/services/{secret}",
        lambda g: f"T{_pick(g, UPPER_DIGITS, 10)}/B{_pick(g, UPPER_DIGITS, 10)}/{_pick(g, ALNUM, 24)}",
    ),
    _inside(
        "discord webhook",
        "https://discord.com/api/webhooks/{secret}",
        lambda g: f"{g.randrange(10**17, 10**18)}/{_pick(g, URLSAFE, 68)}",
    ),
    _teams_webhook,
    _whole("google api key", lambda g: "AIza" + _pick(g, URLSAFE, 35)),
    _whole("google oauth client secret", lambda g: "GOCSPX-" + _pick(g, URLSAFE, 28)),
    _whole("google oauth access token", lambda g: "ya29." + _pick(g, URLSAFE, 120)),
    _whole("google oauth refresh token", lambda g: "1//0" + _pick(g, URLSAFE, 100)),
    _inside(
        "azure storage account key",
        "DefaultEndpointsProtocol=https;AccountName=trainingdata;AccountKey={secret};EndpointSuffix=core.windows.net",
        lambda g: _b64(g, 64),
    ),
    _inside(
        "azure service bus connection string",
        "Endpoint=sb://train-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
        "SharedAccessKey={secret}",
        lambda g: _b64(g, 32),
    ),
    _inside(
        "azure sql connection string",
        "Server=tcp:train.database.windows.net,1433;Initial Catalog=runs;User ID=trainer;Password={secret};"
        "Encrypt=True;",
        lambda g: _pick(g, ALNUM, 20),
    ),
    _inside(
        "azure sas url",
        "https://trainingdata.blob.core.windows.net/ckpt?sv=2022-11-02&ss=b&srt=co&sp=rl&sig={secret}",
        lambda g: _b64(g, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"),
    ),
    _whole(
        "azure ad client secret",
        lambda g: _pick(g, ALNUM, 3) + str(g.randrange(10)) + "Q~" + _pick(g, ALNUM + "_~.-", 34),
    ),
    _inside(
        "azure devops pat",
        "AZURE_DEVOPS_EXT_PAT={secret}",
        lambda g: _pick(g, "abcdefghijklmnopqrstuvwxyz234567", 52),
    ),
    _whole("alibaba access key id", lambda g: "LTAI" + _pick(g, ALNUM, 20)),
    _whole("stripe live secret key", lambda g: "sk_live_" + _pick(g, ALNUM, 24)),
    _whole("stripe restricted key", lambda g: "rk_live_" + _pick(g, ALNUM, 24)),
    _whole("stripe webhook secret", lambda g: "whsec_" + _pick(g, ALNUM, 32)),
    _whole("square token", lambda g: "EAAA" + _pick(g, URLSAFE, 60)),
    _whole("shopify token", lambda g: "shpat_" + _hex(g, 32)),
    _whole("twilio api key", lambda g: "SK" + _hex(g, 32)),
    _inside("twilio auth token", "TWILIO_AUTH_TOKEN={secret}", lambda g: _hex(g, 32)),
    _whole("sendgrid key", lambda g: "SG." + _pick(g, URLSAFE, 22) + "." + _pick(g, URLSAFE, 43)),
    _whole("brevo key", lambda g: "xkeysib-" + _hex(g, 64) + "-" + _pick(g, ALNUM, 16)),
    _whole("mailgun key", lambda g: "key-" + _hex(g, 32)),
    _whole("mailchimp key", lambda g: _hex(g, 32) + "-us" + str(g.randrange(1, 21))),
    _whole("telegram bot token", lambda g: f"{g.randrange(10**9, 10**10)}:" + _pick(g, URLSAFE, 35)),
    _whole(
        "discord bot token",
        lambda g: "M" + _pick(g, URLSAFE, 25) + "." + _pick(g, URLSAFE, 6) + "." + _pick(g, URLSAFE, 38),
    ),
    _whole("atlassian token", lambda g: "ATATT3" + _pick(g, URLSAFE, 186)),
    _whole("linear key", lambda g: "lin_api_" + _pick(g, ALNUM, 40)),
    _whole("notion token", lambda g: "ntn_" + str(g.randrange(10**10, 10**11)) + _pick(g, ALNUM, 35)),
    _whole("postman key", lambda g: "PMAK-" + _hex(g, 24) + "-" + _hex(g, 34)),
    _whole("heroku api key", lambda g: "HRKU-AA" + _pick(g, URLSAFE, 58)),
    _whole("npm token", lambda g: "npm_" + _pick(g, ALNUM, 36)),
    _inside("npmrc auth token", "//npm.example.com/:_authToken={secret}", lambda g: _pick(g, ALNUM, 40)),
    _whole("pypi token", lambda g: "pypi-AgEIcHlwaS5vcmc" + _pick(g, URLSAFE, 80)),
    _whole("rubygems token", lambda g: "rubygems_" + _hex(g, 48)),
    _whole("docker hub token", lambda g: "dckr_pat_" + _pick(g, URLSAFE, 27)),
    _whole("jfrog reference token", lambda g: "cmVmdGtuOjAxOjE3" + _pick(g, ALNUM, 48)),
    _whole("sonarqube token", lambda g: "squ_" + _hex(g, 40)),
    _whole("pulumi token", lambda g: "pul-" + _hex(g, 40)),
    _whole("terraform cloud token", lambda g: _pick(g, ALNUM, 14) + ".atlasv1." + _pick(g, URLSAFE, 67)),
    _whole("vault service token", lambda g: "hvs." + _pick(g, URLSAFE, 90)),
    _whole("vault batch token", lambda g: "hvb." + _pick(g, URLSAFE, 130)),
    _whole("doppler token", lambda g: "dp.pt." + _pick(g, ALNUM, 43)),
    _whole("1password service account token", lambda g: "ops_eyJ" + _pick(g, BASE64, 250)),
    _whole("tailscale auth key", lambda g: f"tskey-auth-k{_pick(g, ALNUM, 10)}CNTRL-{_pick(g, ALNUM, 33)}"),
    _whole("databricks token", lambda g: "dapi" + _hex(g, 32)),
    _whole("digitalocean token", lambda g: "dop_v1_" + _hex(g, 64)),
    _inside("cloudflare api token", "CLOUDFLARE_API_TOKEN={secret}", lambda g: _pick(g, URLSAFE, 40)),
    _inside("cloudflare global api key", "X-Auth-Key: {secret}", lambda g: _hex(g, 37)),
    _whole("cloudflare origin ca key", lambda g: "v1.0-" + _hex(g, 24) + "-" + _hex(g, 146)),
    _inside("cloudflare tunnel token", "cloudflared tunnel run --token {secret}", _tunnel_token),
    _inside("datadog api key", "DD_API_KEY={secret}", lambda g: _hex(g, 32)),
    _inside("datadog app key", "DD_APP_KEY={secret}", lambda g: _hex(g, 40)),
    _whole("new relic user key", lambda g: "NRAK-" + _pick(g, UPPER_DIGITS, 27)),
    _whole("new relic license key", lambda g: _hex(g, 36) + "NRAL"),
    _whole("grafana service account token", lambda g: f"glsa_{_pick(g, ALNUM, 32)}_{_hex(g, 8)}"),
    _whole("grafana cloud token", lambda g: "glc_eyJvIjoi" + _pick(g, BASE64, 120) + "=="),
    _inside("sentry dsn", "https://{secret}@o450123.ingest.sentry.io/4505123", lambda g: _hex(g, 32)),
    _whole("sentry user token", lambda g: "sntryu_" + _hex(g, 64)),
    _whole("openshift token", lambda g: "sha256~" + _pick(g, URLSAFE, 43)),
    _whole("planetscale password", lambda g: "pscale_pw_" + _pick(g, URLSAFE, 43)),
    _whole("age secret key", lambda g: "AGE-SECRET-KEY-1" + _pick(g, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    _inside(
        "kubeadm join token",
        "kubeadm join 10.0.0.1:6443 --token {secret} --discovery-token-unsafe-skip-ca-verification",
        lambda g: _pick(g, LOWER_DIGITS, 6) + "." + _pick(g, LOWER_DIGITS, 16),
    ),
    _whole(
        "kubernetes bootstrap token",
        lambda g: _pick(g, LOWER_DIGITS, 6) + "." + _pick(g, LOWER_DIGITS, 16),
    ),
)

_AI: tuple[Make, ...] = (
    _whole("openai project key", lambda g: "sk-proj-" + _pick(g, URLSAFE, 48)),
    _whole("openai service account key", lambda g: "sk-svcacct-" + _pick(g, URLSAFE, 100)),
    _whole("openai legacy key", lambda g: "sk-" + _pick(g, ALNUM, 20) + "T3BlbkFJ" + _pick(g, ALNUM, 20)),
    _whole("anthropic api key", lambda g: "sk-ant-api03-" + _pick(g, URLSAFE, 93) + "AA"),
    _whole("anthropic admin key", lambda g: "sk-ant-admin01-" + _pick(g, URLSAFE, 93) + "AA"),
    _whole("openrouter key", lambda g: "sk-or-v1-" + _hex(g, 64)),
    _whole("deepseek key", lambda g: "sk-" + _hex(g, 32)),
    _whole("hugging face token", lambda g: "hf_" + _pick(g, ALNUM, 34)),
    _whole("hugging face org token", lambda g: "api_org_" + _pick(g, ALNUM, 34)),
    _whole("nvidia ngc api key", lambda g: "nvapi-" + _pick(g, URLSAFE, 64)),
    _inside("ngc legacy key", "NGC_API_KEY={secret}", lambda g: _b64(g, 63)),
    _whole("replicate token", lambda g: "r8_" + _pick(g, ALNUM, 37)),
    _whole("groq key", lambda g: "gsk_" + _pick(g, ALNUM, 52)),
    _whole("xai key", lambda g: "xai-" + _pick(g, ALNUM, 80)),
    _whole("perplexity key", lambda g: "pplx-" + _pick(g, ALNUM, 48)),
    _whole("together key", lambda g: "tgp_v1_" + _pick(g, URLSAFE, 43)),
    _whole("fireworks key", lambda g: "fw_" + _pick(g, ALNUM, 24)),
    _whole("cerebras key", lambda g: "csk-" + _pick(g, LOWER_DIGITS, 48)),
    _whole("pinecone key", lambda g: "pcsk_" + _pick(g, ALNUM, 6) + "_" + _pick(g, URLSAFE, 64)),
    _whole("langsmith key", lambda g: "lsv2_pt_" + _hex(g, 32) + "_" + _hex(g, 10)),
    _inside("mistral key", "MISTRAL_API_KEY={secret}", lambda g: _pick(g, ALNUM, 32)),
    _inside("cohere key", "CO_API_KEY={secret}", lambda g: _pick(g, ALNUM, 40)),
    _inside("weights and biases key", "WANDB_API_KEY={secret}", lambda g: _hex(g, 40)),
    _inside("wandb login", "wandb login {secret}", lambda g: _hex(g, 40)),
    _whole("weights and biases local key", lambda g: "local-" + _hex(g, 40)),
)

_CARRIERS: tuple[Make, ...] = (
    _jwt(
        "jwt", {"alg": "HS256", "typ": "JWT"}, lambda g: {"sub": _pick(g, ALNUM, 16), "iat": 1700000000}, 32
    ),
    _jwt(
        "kubernetes service account token",
        {"alg": "RS256", "kid": "k8s-signing"},
        _service_account_claims,
        256,
    ),
    _block("pem rsa private key", "RSA PRIVATE KEY", 300),
    _block("openssh private key", "OPENSSH PRIVATE KEY", 400),
    _block(
        "pgp private key block",
        "PGP PRIVATE KEY BLOCK",
        400,
        "Version: GnuPG v2\nComment: trainer@example.com\n\n",
    ),
    _block("encrypted private key", "ENCRYPTED PRIVATE KEY", 200),
    _gcp_private_key,
    _inside(
        "gcp service account private_key_id",
        '{"type":"service_account","project_id":"train-4711","private_key_id":"{secret}",'
        '"client_email":"trainer@train-4711.iam.gserviceaccount.com"}',
        lambda g: _hex(g, 40),
    ),
    _inside(
        "basic-auth url", "https://trainer:{secret}@registry.example.com/v2/", lambda g: _pick(g, ALNUM, 18)
    ),
    _inside(
        "redis url with empty user",
        "redis://:{secret}@redis-master.cache.svc:6379/0",
        lambda g: _pick(g, ALNUM, 24),
    ),
    _inside("url password with a slash", "https://ci:{secret}@git.example.com/org/repo.git", _with_slash),
    _inside(
        "mongodb srv url",
        "mongodb+srv://trainer:{secret}@cluster0.ab1cd.mongodb.net/runs",
        lambda g: _pick(g, ALNUM, 20),
    ),
    _inside("amqp url", "amqp://jobs:{secret}@rabbitmq.queue.svc:5672/%2F", lambda g: _pick(g, ALNUM, 20)),
    _inside(
        "go mysql dsn",
        "trainer:{secret}@tcp(mysql.db.svc:3306)/runs?parseTime=true",
        lambda g: _pick(g, ALNUM, 16),
    ),
    _inside(
        "jdbc password parameter",
        "jdbc:postgresql://db:5432/runs?user=trainer&password={secret}&ssl=true",
        lambda g: _pick(g, ALNUM, 18),
    ),
    _inside("password assignment", "password={secret}", lambda g: _pick(g, ALNUM, 14)),
    _inside(
        "quoted password with spaces",
        'password: "{secret}"',
        lambda g: " ".join(_pick(g, ALNUM, 8) for _ in range(3)),
    ),
    _inside("token assignment", "token: {secret}", lambda g: _pick(g, ALNUM, 22)),
    _inside("client secret in ini", "client_secret = {secret}", lambda g: _hex(g, 32)),
    _inside("django secret key", "SECRET_KEY = {secret}", lambda g: _pick(g, ALNUM + "!#%^*(-_=+)", 50)),
    _inside(
        "pgpassword env", "PGPASSWORD={secret} psql -h db -U trainer runs", lambda g: _pick(g, ALNUM, 16)
    ),
    _inside("api key flag", "--api-key={secret}", lambda g: _pick(g, ALNUM, 26)),
    _inside("kubectl token flag", "kubectl --token={secret} get pods", lambda g: _pick(g, URLSAFE, 40)),
    _inside("db-pass flag", "--db-pass={secret}", lambda g: _pick(g, ALNUM, 18)),
    _inside("pass flag", "--pass {secret}", lambda g: _pick(g, ALNUM, 18)),
    _inside("bearer header", "Authorization: Bearer {secret}", lambda g: _pick(g, URLSAFE, 40)),
    _inside("basic header", "Authorization: Basic {secret}", _docker_auth),
    _inside("api key header", "X-Api-Key: {secret}", lambda g: _pick(g, ALNUM, 32)),
    _inside("cookie header", "Cookie: session={secret}", lambda g: _pick(g, URLSAFE, 40)),
    _inside(
        "docker config json password",
        '{"auths":{"registry.example.com":{"username":"ci","password":"{secret}"}}}',
        lambda g: _pick(g, ALNUM, 20),
    ),
    _inside("docker config json auth", '{"auths":{"ghcr.io":{"auth":"{secret}"}}}', _docker_auth),
    _inside(
        "last-applied-configuration env",
        '{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":{"spec":{"containers":[{"env":'
        '[{"name":"DB_PASSWORD","value":"{secret}"}],"name":"app"}]}}}}',
        lambda g: _pick(g, ALNUM, 18),
    ),
    _inside("env pair as yaml text", "- name: HF_TOKEN\n  value: {secret}", lambda g: _pick(g, ALNUM, 30)),
    _inside("escaped json password", '{\\"password\\":\\"{secret}\\"}', lambda g: _pick(g, ALNUM, 16)),
    _inside(
        "curl user",
        "curl -sS -u admin:{secret} https://artifactory.example.com/api/system/ping",
        lambda g: _pick(g, ALNUM, 16),
    ),
    _inside("sshpass password", "sshpass -p {secret} ssh trainer@login-node", lambda g: _pick(g, ALNUM, 16)),
    _inside("mysql glued password", "mysql -h db -uroot -p{secret} runs", lambda g: _pick(g, ALNUM, 16)),
    _inside(
        "docker login password",
        "docker login -u ci -p {secret} registry.example.com",
        lambda g: _pick(g, ALNUM, 20),
    ),
    _inside("redis-cli password", "redis-cli -h cache -a {secret} ping", lambda g: _pick(g, ALNUM, 20)),
    _inside(
        "openssl pass",
        "openssl pkcs12 -export -passout pass:{secret} -in tls.crt",
        lambda g: _pick(g, ALNUM, 16),
    ),
    _inside(
        "minio client keys",
        "mc alias set ckpt https://minio.example.com AKMINIO2024 {secret}",
        lambda g: _pick(g, ALNUM, 40),
    ),
    _inside(
        "htpasswd batch", "htpasswd -bc /etc/nginx/.htpasswd admin {secret}", lambda g: _pick(g, ALNUM, 16)
    ),
    _inside(
        "ldap bind password",
        "ldapsearch -x -D cn=admin,dc=example,dc=org -w {secret}",
        lambda g: _pick(g, ALNUM, 16),
    ),
    _inside("sqlcmd password", "sqlcmd -S db -U sa -P {secret}", lambda g: _pick(g, ALNUM, 16)),
    _inside(
        "aws configure set",
        "aws configure set aws_secret_access_key {secret}",
        lambda g: _pick(g, BASE64, 40),
    ),
    _inside("netrc", "machine api.example.com login ci password {secret}", lambda g: _pick(g, ALNUM, 20)),
    _inside("pgpass line", "db.example.com:5432:runs:trainer:{secret}", lambda g: _pick(g, ALNUM, 20)),
    _inside("htpasswd bcrypt", "admin:{secret}", lambda g: "$2y$10$" + _pick(g, CRYPT, 53)),
    _inside(
        "htpasswd md5-crypt",
        "admin:{secret}",
        lambda g: "$apr1$" + _pick(g, CRYPT, 8) + "$" + _pick(g, CRYPT, 22),
    ),
    _inside("htpasswd sha", "admin:{secret}", lambda g: "{SHA}" + _b64(g, 20)),
    _inside("mistral key beside a key-like name", "MISTRAL_KEY={secret}", lambda g: _pick(g, ALNUM, 32)),
    _inside("bare 32-hex key beside a key-like name", "datadog-key: {secret}", lambda g: _hex(g, 32)),
    _whole("random key material", lambda g: _b64(g, 36)),
    _whole("kubeconfig client-key-data", _pem_base64),
)


def _url(text: str) -> str:
    return quote(text, safe="")


def _hexed(text: str) -> str:
    return text.encode().hex()


def _base64ed(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _a_jwt(generator: random.Random) -> str:
    return _jwt("", {"alg": "HS256"}, lambda inner: {"sub": _pick(inner, ALNUM, 12)}, 32)(generator).secret


_VARIANTS: tuple[Make, ...] = (
    _encoded(
        "url-encoded url password",
        _url,
        "https://ci:{secret}@registry.example.com/v2/",
        lambda g: _pick(g, ALNUM, 18),
        whole=False,
    ),
    _encoded("url-encoded assignment", _url, "password={secret}", lambda g: _pick(g, ALNUM, 16), whole=False),
    _encoded("hex-encoded token", _hexed, "{secret}", lambda g: "ghp_" + _pick(g, ALNUM, 36), whole=True),
    _encoded(
        "hex-encoded assignment", _hexed, "password={secret}", lambda g: _pick(g, ALNUM, 16), whole=True
    ),
    _encoded(
        "base64-encoded assignment", _base64ed, "token: {secret}", lambda g: _pick(g, ALNUM, 24), whole=True
    ),
    _glued("token glued after a word", "token", lambda g: "ghp_" + _pick(g, ALNUM, 36)),
    _glued("aws key glued after a word", "keyid", lambda g: "AKIA" + _pick(g, UPPER_DIGITS, 16)),
    _glued("token after an escaped newline", "first line\\n", lambda g: "hf_" + _pick(g, ALNUM, 34)),
    _glued("jwt glued after a word", "bearer", _a_jwt),
)

FORMATS: tuple[Make, ...] = (*_TOKENS, *_AI, *_CARRIERS, *_VARIANTS)


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
