"""The bundled demo cluster (cluster.json) and the script that builds it (build_demo.py)."""
