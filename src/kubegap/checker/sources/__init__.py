"""Where a Snapshot comes from, besides the live cluster: snapshot files, manifests and the demo."""

from kubegap.checker.sources.demo import demo_path, load_demo
from kubegap.checker.sources.manifests import load_manifests
from kubegap.checker.sources.snapshot_files import load_snapshot_files

__all__ = ["demo_path", "load_demo", "load_manifests", "load_snapshot_files"]
