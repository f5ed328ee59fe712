"""The Incident Library on the web: server-rendered pages, their JSON twins, exports and a feed."""

from kubegap.web.app import create_app

__all__ = ["create_app"]
