"""kubegap: learn from public AI-infrastructure outages and find the same gaps in your own cluster."""

__version__ = "0.1.0"
