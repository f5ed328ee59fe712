"""Build the krew plugin archive for `kubectl gap` and keep deploy/krew/gap.yaml's checksum true.

The archive holds bin/kubectl-gap (a shell wrapper that runs the pip-installed kubegap) and LICENSE.
It is byte-for-byte reproducible (fixed order, owners, modes and times, gzip without a timestamp),
so the sha256 in the manifest can be checked by a test and re-made by anyone:

    python scripts/krew_release.py --write      # build dist/ archive, update the manifest's sha256
    python scripts/krew_release.py              # build and print the sha256 only
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import re
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / "deploy" / "krew" / "gap.yaml"
MEMBERS = (("kubectl-gap", REPO / "bin" / "kubectl-gap", 0o755), ("LICENSE", REPO / "LICENSE", 0o644))


def archive_bytes() -> bytes:
    """The .tar.gz as bytes, identical on every run for the same inputs."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, path, mode in MEMBERS:
            data = path.read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            archive.addfile(info, io.BytesIO(data))
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0, compresslevel=9) as stream:
        stream.write(raw.getvalue())
    return packed.getvalue()


def version() -> str:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', text, re.MULTILINE)
    if found is None:
        raise SystemExit("pyproject.toml has no version")
    return found.group(1)


def archive_name() -> str:
    return f"kubectl-gap-v{version()}.tar.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="update the sha256 lines of the manifest")
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="folder for the archive")
    options = parser.parse_args(argv)
    data = archive_bytes()
    digest = hashlib.sha256(data).hexdigest()
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / archive_name()).write_bytes(data)
    if options.write:
        text = MANIFEST.read_text(encoding="utf-8")
        MANIFEST.write_text(re.sub(r"sha256: [0-9a-f]{64}", f"sha256: {digest}", text), encoding="utf-8")
    print(f"{options.out / archive_name()} {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
