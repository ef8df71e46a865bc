"""Structured JSON logs: one object per line with time, level, logger, message, the request id and walk id of
the request being served (from context variables), and any ``extra`` fields. Nothing secret is ever passed in:
settings are logged only as names, tokens and passwords never."""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("gw_request_id", default=None)
walk_id_var: ContextVar[str | None] = ContextVar("gw_walk_id", default=None)

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request_id, walk_id = request_id_var.get(), walk_id_var.get()
        if request_id is not None:
            data["request_id"] = request_id
        if walk_id is not None:
            data["walk_id"] = walk_id
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


def configure(level: str = "info") -> None:
    """Send the service's and uvicorn's logs to stderr as JSON lines (uvicorn's access log is replaced by the
    service's own request line)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("graphwalk_neo4j", "uvicorn", "uvicorn.error", "mcp"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True
