"""graphwalk as a long-running service: the ASGI app (:func:`create_app`), its warm shared context, the MCP
server, and the uvicorn runner with graceful shutdown. See docs/service.md."""

from graphwalk_neo4j.admission import WalkCall
from graphwalk_neo4j.service.app import create_app
from graphwalk_neo4j.service.context import ServiceContext

__all__ = ["ServiceContext", "WalkCall", "create_app"]
