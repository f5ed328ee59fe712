"""The redaction chokepoint: seeded secrets disappear, ordinary technical values survive."""

from __future__ import annotations

import base64
import random

import pytest

from kubegap.redaction import (
    REDACTED,
    is_secret_name,
    redact_args,
    redact_env,
    redact_text,
    redact_value,
)

_RANDOM_BASE64 = base64.b64encode(bytes(range(7, 250, 8))).decode()  # 32 bytes of key-like material
_RANDOM_HEX = "9f2c" + "e1b7a04d63f8" * 5  # 64 hex characters, not after a digest prefix

SECRETS = [
    ("aws access key id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (
        "github classic token",
        "token ghp_16C7e42F292c6912E7710c838347Ae178B4a here",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    (
        "github fine-grained",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
        "github_pat_11ABCDEFG0123456789",
    ),
    ("slack bot token", "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx", "xoxb-123456789012"),
    (
        "jwt",
        "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJlLXZhbHVlLWhlcmU",
        "eyJpc3MiOiJrdWJlcm5ldGVzIn0",
    ),
    (
        "pem private key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1L\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAu1SU1L",
    ),
    (
        "pem without end",
        "key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
        "MIIEvQIBADANBgkqhkiG9w0",
    ),
    ("bearer header", "Authorization: Bearer abc.def-ghi_jkl~mno", "abc.def-ghi_jkl~mno"),
    ("hugging face", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"),
    ("openai key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123", "AbCdEfGhIjKlMnOpQrStUvWx0123"),
    ("url password", "https://admin:s3cr3tpass@registry.example.com/v2", "s3cr3tpass"),
    ("password flag", "--password=hunter2", "hunter2"),
    ("token flag with space", "serve --token abc123xyz --port 8080", "abc123xyz"),
    ("env assignment", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG", "wJalrXUtnFEMIK7MDENG"),
    ("yaml style", "db_password: correcthorse", "correcthorse"),
    ("random base64", f"value {_RANDOM_BASE64} end", _RANDOM_BASE64),
    ("random hex", f"key material {_RANDOM_HEX}", _RANDOM_HEX),
]


@pytest.mark.parametrize(("label", "text", "secret"), SECRETS, ids=[case[0] for case in SECRETS])
def test_seeded_secrets_are_redacted(label: str, text: str, secret: str) -> None:
    redacted = redact_text(text)
    assert secret not in redacted
    assert REDACTED in redacted


def test_generated_keys_are_redacted_by_shape_alone() -> None:
    """Random key material with no telling name around it: a shape rule cannot be perfect, so it is
    measured. Seeded, so every run sees the same 1,000 keys of each encoding."""
    generator = random.Random(20261202)
    missed = {"urlsafe": 0, "standard": 0, "hex": 0}
    for _ in range(1000):
        material = generator.randbytes(32)
        encodings = {
            "urlsafe": base64.urlsafe_b64encode(material).decode().rstrip("="),
            "standard": base64.b64encode(material).decode(),
            "hex": material.hex(),
        }
        for encoding, token in encodings.items():
            missed[encoding] += token in redact_text(f"value {token} end")
    assert missed["hex"] == 0
    assert missed["urlsafe"] <= 10 and missed["standard"] <= 10, missed


DIGEST = "sha256:" + "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
SURVIVORS = [
    ("image digest", f"nvcr.io/nvidia/k8s/dcgm-exporter@{DIGEST}"),
    ("container id", "containerd://4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"),
    ("uid", "6d4e4a1c-3b7f-4d6e-9a8b-1c2d3e4f5a6b"),
    ("resource version", "184467440737095"),
    ("image with tag", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.0-ubuntu22.04"),
    ("nccl env", "NCCL_IB_HCA=mlx5_0,mlx5_1"),
    ("tokenizer env", "TOKENIZERS_PARALLELISM=false"),
    ("authorization mode flag", "--authorization-mode=Node,RBAC"),
    ("key file flag", "--tls-private-key-file=/etc/kubernetes/pki/apiserver.key"),
    ("boolean token flag", "--enable-bootstrap-token-auth=true"),
    (
        "azure provider id",
        "azure:///subscriptions/0000-1111/resourceGroups/MC_rg_cluster_eastus/providers/Microsoft.Compute/"
        "virtualMachineScaleSets/aks-gpupool-12345678-vmss/virtualMachines/0",
    ),
    ("node name", "gke-train-a3-highgpu-8g-pool-4f2a1c9e-x7kq"),
    (
        "long camel case",
        "registry1AmazonawsComEcrPublicAwsLoadBalancer9 and ThisIsAVeryLongCamelCaseIdentifierName123",
    ),
    ("plain sentence", "DaemonSet dcgm-exporter misses 3 of 12 GPU nodes"),
    ("taint", "nvidia.com/gpu=present:NoSchedule"),
]


@pytest.mark.parametrize(("label", "text"), SURVIVORS, ids=[case[0] for case in SURVIVORS])
def test_ordinary_values_survive(label: str, text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("API_KEY", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("HF_TOKEN", True),
        ("dbPassword", True),
        ("DB_PASSWD", True),
        ("GITHUB_CREDENTIALS", True),
        ("BASIC_AUTH", True),
        ("SSH_PRIVATE_KEY", True),
        ("--api-key", True),
        ("WANDB_API_KEY", True),
        ("NCCL_IB_HCA", False),
        ("TOKENIZERS_PARALLELISM", False),
        ("key", False),
        ("KEYCLOAK_URL", False),
        ("secretName", False),
        ("secretKeyRef", False),
        ("SSL_KEY_FILE", False),
        ("AUTHOR", False),
        ("MONKEY_COUNT", False),
        ("topologyKey", False),
        ("pKeyGUIDPoolRangeStart", False),
        ("CACHE_KEY_PREFIX", False),
        ("rbac.authorization.k8s.io/ClusterRoleBinding", False),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_redact_value_by_key_name_by_env_pair_and_by_shape_without_touching_input() -> None:
    container = {
        "name": "trainer",
        "image": f"ghcr.io/org/train@{DIGEST}",
        "env": [
            {"name": "HF_TOKEN", "value": "plainlookingvalue"},
            {"name": "NCCL_DEBUG", "value": "INFO"},
            {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}},
        ],
        "args": ["--token", "abc", "--lr=0.1", "--password=pw1"],
        "apiKey": "k-123",
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
        "uid": "6d4e4a1c-3b7f-4d6e-9a8b-1c2d3e4f5a6b",
        "containerID": "4357ed00f685ddcfafb9b551fbad81f6ad9a39d74f0158fe22b6e937dad415df",
        "topologyKey": "kubernetes.io/hostname",
        "HF_TOKEN": "$HF_TOKEN",
        "enabled": True,
    }
    snapshot_of_input = repr(container)
    redacted = redact_value(container)
    assert repr(container) == snapshot_of_input  # the input is never changed
    assert redacted["env"][0]["value"] == REDACTED
    assert redacted["env"][1]["value"] == "INFO"
    assert redacted["env"][2]["valueFrom"] == {"secretKeyRef": {"name": "db", "key": "password"}}
    assert redacted["args"] == ["--token", REDACTED, "--lr=0.1", f"--password={REDACTED}"]
    assert redacted["apiKey"] == REDACTED
    assert redacted["tolerations"] == container["tolerations"]
    for kept in ("image", "uid", "containerID", "topologyKey", "HF_TOKEN"):  # `$HF_TOKEN` is a reference
        assert redacted[kept] == container[kept], kept
    assert redacted["enabled"] is True


def test_env_and_args_helpers_and_secret_objects() -> None:
    assert redact_env([{"name": "GH_TOKEN", "value": "x"}]) == [{"name": "GH_TOKEN", "value": REDACTED}]
    assert redact_args(["--api-key", "zzz", "run"]) == ["--api-key", REDACTED, "run"]
    secret = {"kind": "Secret", "data": {"a": "b"}, "stringData": {"c": "d"}}
    assert redact_value(secret) == {"kind": "Secret", "data": REDACTED, "stringData": REDACTED}


def test_long_text_is_truncated_and_redaction_is_idempotent() -> None:
    out = redact_text("x" * 10_000_000)
    assert len(out) < 5000 and out.endswith(f"… (+{10_000_000 - 4000:,} characters)")
    once = redact_text("--password=hunter2 AKIAIOSFODNN7EXAMPLE")
    assert redact_text(once) == once
