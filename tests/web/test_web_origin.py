"""The host list `kubegap serve` answers, and the same-origin and token guard, at the unit level.

tests/e2e/test_serve_hosts.py sends the foreign Host and Origin headers to a real server; these pin
the rules it relies on, including the ones a real server cannot easily show (IPv6 binds, wildcards).
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kubegap.cli import main
from kubegap.errors import UsageError
from kubegap.web.app import create_app
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.security import served_hosts


def test_served_hosts_are_loopback_the_bind_address_and_the_allowed_names() -> None:
    assert served_hosts() == ["127.0.0.1", "localhost", "[::1]"]
    assert served_hosts("0.0.0.0") == ["127.0.0.1", "localhost", "[::1]"]  # a wildcard is no name
    assert served_hosts("10.1.2.3", ["GPU-Box.lan", " "]) == [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "10.1.2.3",
        "gpu-box.lan",
    ]
    assert served_hosts("fe80::1")[-1] == "[fe80::1]"
    assert served_hosts("::", ["*.corp.example"])[-1] == "*.corp.example"
    for bad in ("*", "a*b", "*corp"):
        with pytest.raises(UsageError):
            served_hosts("127.0.0.1", [bad])


def test_a_bad_allowed_host_is_one_line_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--no-scan", "--allowed-host", "a*b"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "Error: --allowed-host 'a*b': use a host name, an address, or '*.example.com'"
    ]


def test_the_guard_refuses_foreign_origins_and_accepts_its_own() -> None:
    from kubegap.library import Library

    scan = ClusterScan.off()
    app = create_app(Library.open(), [], cluster=scan, allowed_hosts=["127.0.0.1", "kubegap.test"])
    with TestClient(app, base_url="http://kubegap.test") as client:
        assert client.get("/en/cluster.json").status_code == 200
        assert client.get("/en/cluster.json", headers={"host": "other.test"}).status_code == 400
        own = {"Origin": "http://kubegap.test", "Sec-Fetch-Site": "same-origin"}
        accepted = client.post("/en/cluster.json", data={"token": scan.action_token}, headers=own)
        assert accepted.status_code == 200 and accepted.json()["notices"] == [
            "This server was started with --no-scan."
        ]
        for headers in (
            {"Origin": "http://kubegap.test.evil"},
            {"Origin": "https://kubegap.test"},  # another scheme is another origin
            {"Sec-Fetch-Site": "same-site"},
        ):
            refused = client.post("/en/cluster.json", data={"token": scan.action_token}, headers=headers)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden", headers
        wrong = client.post("/en/cluster.json", headers={"X-Kubegap-Token": scan.action_token[:-1] + "x"})
        assert wrong.status_code == 403
        assert client.post("/en/cluster.json", headers={"X-Kubegap-Token": b"\xe9\xff"}).status_code == 403
        assert client.post("/xx/cluster.json", data={"token": scan.action_token}).status_code == 404


def test_the_400_for_a_foreign_host_carries_the_security_headers() -> None:
    """The answer to a rebinding name is a page too: before, it came without CSP and nosniff."""
    from kubegap.library import Library

    app = create_app(Library.open(), [], cluster=ClusterScan.off())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for path in ("/en/cluster.json", "/", "/static/style.css", "/nothing"):
            refused = client.get(path, headers={"host": "rebind.evil.example"})
            assert refused.status_code == 400
            assert refused.headers["content-security-policy"].startswith("default-src 'none'")
            assert refused.headers["x-content-type-options"] == "nosniff"
            assert refused.headers["x-frame-options"] == "DENY"
        assert client.get("/en/").headers["content-security-policy"].startswith("default-src 'none'")
