"""Hostile kubeconfig benchmark: how each kubeconfig that once crashed or stalled a scan ends now.

Each case is `kubegap scan --kubeconfig CASE -f json` in a fresh process against an emulated API
server (3 GPU nodes; a second one serves HTTPS for the insecure-skip-tls-verify case), with the
default environment, so stderr is what a user would see. For a before/after comparison, point
`--before` at the `src` folder of an older tree (`git archive <commit> src | tar -x -C /tmp/old`);
both trees run in the same invocation, one case after the other.

    .venv/bin/python bench/bench_kubeconfig_inputs.py [--before /tmp/old/src]

Prints a Markdown table for BENCHMARKS.md: wall time, exit code, stderr lines, and whether stderr
held a traceback or the bearer token.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.factories import gpu_node  # noqa: E402
from k8s_emulator.testing import write_self_signed_certificate  # noqa: E402

TOKEN = "benchToken0123456789abcdefSECRET"
EXEC_API = "client.authentication.k8s.io/v1beta1"


def _config(folder: Path, name: str, server: str, user: dict[str, Any], **cluster: Any) -> Path:
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": server, **cluster}}],
        "users": [{"name": "u", "user": user}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "x",
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _cases(folder: Path, plain: str, secure: str) -> dict[str, tuple[Path, list[str]]]:
    plugin = folder / "sleep.sh"
    plugin.write_text("#!/bin/sh\nsleep 60\n", encoding="utf-8")
    plugin.chmod(0o755)
    deep = folder / "deep.yaml"
    deep.write_text("a: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    sleeping = {"exec": {"apiVersion": EXEC_API, "command": str(plugin)}}
    return {
        "exec plugin sleeping 60 s, --scan-timeout 8": (
            _config(folder, "sleep", plain, sleeping),
            ["--scan-timeout", "8"],
        ),
        "token ending in a newline (a `token:` block)": (
            _config(folder, "newline", plain, {"token": TOKEN + "\n"}),
            [],
        ),
        "insecure-skip-tls-verify (3 nodes)": (
            _config(folder, "insecure", secure, {"token": TOKEN}, **{"insecure-skip-tls-verify": True}),
            [],
        ),
        "proxy-url socks5": (
            _config(folder, "socks", plain, {"token": TOKEN}, **{"proxy-url": "socks5://127.0.0.1:1080"}),
            [],
        ),
        "proxy-url garbage": (
            _config(folder, "garbage", plain, {"token": TOKEN}, **{"proxy-url": "::::not a url"}),
            [],
        ),
        "YAML nested 5,000 levels": (deep, []),
        # Not run against --before: the old reader read /dev/zero until memory ran out.
        "tokenFile: /dev/zero": (_config(folder, "zero", plain, {"tokenFile": "/dev/zero"}), []),
    }


def _run(source: str, home: Path, *args: str) -> tuple[float, str, str]:
    env = {key: value for key, value in os.environ.items() if key != "KUBECONFIG"}
    env.update(PYTHONPATH=source, HOME=str(home))
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "kubegap", "--lang", "en", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=180,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return time.monotonic() - started, "timeout", ""
    return time.monotonic() - started, str(done.returncode), done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the src folder of an older tree to compare with")
    options = parser.parse_args()
    trees = {"before": options.before} if options.before else {}
    trees["now"] = str(REPO / "src")
    print("| kubeconfig | tree | time to end | exit | stderr lines | traceback | token shown |")
    print("|---|---|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        certificate = write_self_signed_certificate(folder)
        nodes = [gpu_node(f"gpu-{index}") for index in range(3)]
        with (
            KubeEmulator(nodes, token=TOKEN) as plain,
            KubeEmulator(nodes, token=TOKEN, tls=certificate) as secure,
        ):
            for name, (path, extra) in _cases(folder, plain.url, secure.url).items():
                for tree, source in trees.items():
                    if tree == "before" and "/dev/zero" in name:
                        continue
                    seconds, code, err = _run(
                        source, folder, "scan", "--kubeconfig", str(path), "-f", "json", *extra
                    )
                    traceback = "yes" if "Traceback" in err else "no"
                    shown = "yes" if TOKEN in err else "no"
                    lines = len(err.splitlines())
                    print(
                        f"| {name} | {tree} | {seconds:.1f} s | {code} | {lines:,} | {traceback} | {shown} |"
                    )


if __name__ == "__main__":
    main()
