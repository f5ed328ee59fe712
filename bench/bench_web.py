"""Benchmark: requests per second for the library's list page, against the same HTML served as a static file.

    .venv/bin/python bench/bench_web.py [--seconds 10] [--connections 8] [--path /ko/incidents]

Starts `kubegap serve --no-scan` on a free loopback port (the bundled knowledge base, its index built
first), saves the page it serves, and starts a second server that serves that very HTML as a static
file through the same stack (uvicorn + Starlette's StaticFiles, one process). Then it loads each in
turn for the same time with the same number of keep-alive connections: with `wrk` when Debian's
package is installed, else with a small asyncio load generator in this process. Only loopback
addresses are used, and every run is bounded in time.

Goal (issue #30): the page at >= 0.5x the static file's throughput. Prints a Markdown table. A third
row asks for a different list page on every request (600 URLs in a cycle, more than the server keeps),
so every answer is built: what a page costs when nothing is kept.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

GOAL_RATIO = 0.5
HOST = "127.0.0.1"
# 600 distinct list URLs asked in a cycle: more than the page cache keeps (512), so each is a miss.
VARIED = [f"/{lang}/incidents?per_page={size}&page={page}" for page in (1, 2, 3) for lang in ("ko", "en")
          for size in range(1, 101)]  # fmt: skip
_WRK_SCRIPT = """
paths = {%s}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, paths[(counter %% #paths) + 1])
end
"""

_STATIC_SERVER = """
import sys
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

app = Starlette(routes=[Mount("/", app=StaticFiles(directory=sys.argv[1]))])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], deadline: float = 120.0) -> None:
    stop = time.monotonic() + deadline
    while time.monotonic() < stop:
        if process.poll() is not None:
            raise SystemExit(f"server exited with {process.returncode} before answering {url}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"no answer from {url} within {deadline:.0f} s")


async def _load(port: int, paths: list[str], seconds: float, connections: int) -> tuple[int, int]:
    """Keep-alive GETs on `connections` sockets for `seconds`, cycling through `paths`:
    (responses, non-200 responses)."""
    requests = [f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode() for path in paths]
    stop = time.monotonic() + seconds
    counts = [0, 0]

    async def one_connection(offset: int) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while time.monotonic() < stop:
                writer.write(requests[(counts[0] + offset) % len(requests)])
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                match = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                await reader.readexactly(int(match.group(1)) if match else 0)
                counts[0] += 1
                counts[1] += status != 200
        finally:
            writer.close()

    await asyncio.gather(*(one_connection(offset) for offset in range(connections)))
    return counts[0], counts[1]


def measure(
    port: int, paths: list[str], seconds: float, connections: int, workdir: Path
) -> tuple[float, str]:
    """Requests per second and the tool that measured them."""
    wrk = shutil.which("wrk")
    if wrk:
        command = [wrk, "-t", str(min(2, connections)), "-c", str(connections), "-d", f"{seconds:g}s"]
        if len(paths) > 1:
            script = workdir / "paths.lua"
            script.write_text(_WRK_SCRIPT % ", ".join(f'"{path}"' for path in paths))
            command += ["-s", str(script)]
        completed = subprocess.run(
            [*command, f"http://{HOST}:{port}{paths[0]}"],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        )
        found = re.search(r"Requests/sec:\s*([\d.]+)", completed.stdout)
        if "Non-2xx" in completed.stdout or not found:
            raise SystemExit(f"wrk saw errors or printed no rate:\n{completed.stdout}")
        return float(found.group(1)), "wrk"
    started = time.perf_counter()
    answered, failed = asyncio.run(_load(port, paths, seconds, connections))
    if failed:
        raise SystemExit(f"{failed} of {answered} responses were not 200")
    return answered / (time.perf_counter() - started), "asyncio client"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--path", default="/ko/incidents")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="kubegap-web-"))
    environment = {**os.environ, "HOME": str(workdir), "KUBECONFIG": str(workdir / "none")}
    environment.pop("KUBEGAP_DB", None)
    environment.setdefault("XDG_CACHE_HOME", str(workdir / "cache"))
    kubegap = [sys.executable, "-m", "kubegap"]
    subprocess.run([*kubegap, "incidents", "index"], env=environment, check=True, capture_output=True)
    app_port, static_port = _free_port(), _free_port()
    servers: list[subprocess.Popen[bytes]] = []
    try:
        command = [*kubegap, "serve", "--no-scan", "--host", HOST, "--port", str(app_port)]
        servers.append(
            subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )
        _wait_until_up(f"http://{HOST}:{app_port}{args.path}", servers[0])
        page = httpx.get(f"http://{HOST}:{app_port}{args.path}", timeout=10)
        static_root = workdir / "static"
        static_root.mkdir()
        (static_root / "page.html").write_bytes(page.content)
        servers.append(
            subprocess.Popen(
                [sys.executable, "-c", _STATIC_SERVER, str(static_root), str(static_port)],
                env=environment,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait_until_up(f"http://{HOST}:{static_port}/page.html", servers[1])
        warm = min(1.0, args.seconds)
        measure(app_port, [args.path], warm, args.connections, workdir)  # warm both once
        measure(static_port, ["/page.html"], warm, args.connections, workdir)
        dynamic, tool = measure(app_port, [args.path], args.seconds, args.connections, workdir)
        static, _ = measure(static_port, ["/page.html"], args.seconds, args.connections, workdir)
        varied, _ = measure(app_port, VARIED, args.seconds, args.connections, workdir)
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"`{args.path}` ({len(page.content) / 1024:.1f} KB of HTML), "
        f"{args.connections} keep-alive connections, "
        f"{args.seconds:g} s each, measured with {tool}; {os.cpu_count()} CPUs, load average {load:.2f}\n"
    )
    ratio = dynamic / static
    verdict = "met" if ratio >= GOAL_RATIO else "not met"
    print("| server | requests/s | ratio to static | goal |")
    print("|---|---:|---:|---|")
    print(f"| list page (kubegap serve) | {dynamic:,.0f} | {ratio:.2f} | >= {GOAL_RATIO}: {verdict} |")
    print(f"| the same HTML as a static file (uvicorn + StaticFiles) | {static:,.0f} | 1.00 |  |")
    varied_ratio = varied / static
    row = "list pages, a different one every request (none kept)"
    print(f"| {row} | {varied:,.0f} | {varied_ratio:.2f} |  |")


if __name__ == "__main__":
    main()
