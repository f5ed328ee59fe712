"""Helpers for tests that run kubegap against the emulator."""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections.abc import Callable, Mapping
from pathlib import Path

import yaml

from .server import KubeEmulator

TOKEN = "kubegap-test-token"  # the bearer token emulators started by the test fixtures require

StartEmulator = Callable[..., KubeEmulator]


def assert_read_only(emulator: KubeEmulator) -> None:
    """Nothing but GET reached the server, and nothing named Secrets."""
    assert emulator.non_get_requests() == []
    assert emulator.secret_requests() == []


def write_fleet_kubeconfig(path: Path, servers: Mapping[str, str], token: str = TOKEN) -> Path:
    """One kubeconfig with a context per cluster (name -> server URL), as a fleet operator has."""
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {"server": url}} for name, url in servers.items()],
        "users": [{"name": "fleet-user", "user": {"token": token}}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": "fleet-user"}} for name in servers],
        "current-context": next(iter(servers), ""),
    }
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def write_self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, as (cert.pem, key.pem); the certificate is its own CA."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kubegap-emulator")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_path, key_path
