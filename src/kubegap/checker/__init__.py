"""The gap checker: reads a cluster (live, snapshot or manifests) read-only and reports gaps."""
