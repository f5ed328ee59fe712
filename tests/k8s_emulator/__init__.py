"""An emulated Kubernetes API server for tests and benchmarks (see server.py)."""

from .server import Fault, KubeEmulator, LoggedRequest
from .store import load_objects

__all__ = ["Fault", "KubeEmulator", "LoggedRequest", "load_objects"]
