"""An emulated Kubernetes API server for tests and benchmarks.

    from k8s_emulator import Fault, KubeEmulator
    from k8s_emulator.factories import gpu_cluster

    with KubeEmulator(gpu_cluster(nodes=4, pods=40), enable=["nvidia.com/ClusterPolicy"]) as emulator:
        emulator.inject(Fault(r"/api/v1/nodes", status=429, retry_after="1", times=1))
        kubeconfig = emulator.write_kubeconfig(tmp_path / "kubeconfig")
        ...  # point kubegap (or kubectl --server emulator.url) at it
        assert emulator.non_get_requests() == [] and emulator.secret_requests() == []

`enable` installs CRD kinds that have no objects; kinds with objects are served automatically.
Faults can also misbehave on purpose (`faults.py`): `mode="endless-continue"`, `"looping-continue"`,
`"repeated-continue"`, `"trickle"`, `"trickle-headers"`, `"oversized"`, or `body=` any JSON value.
"""

from .server import Fault, KubeEmulator, LoggedRequest
from .store import load_objects

__all__ = ["Fault", "KubeEmulator", "LoggedRequest", "load_objects"]
