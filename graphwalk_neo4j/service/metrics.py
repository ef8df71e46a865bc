"""Prometheus metrics of one service process (``GET /metrics``, text exposition format).

One :class:`CollectorRegistry` per app, so several apps in one process (tests) never share counters. Walk
metrics are fed from the walk's own totals; Cypher round trips are read from the store's counter at scrape time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.service.context import ServiceContext
    from graphwalk_neo4j.service.models import FinishedWalk

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
DEPTH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
WALK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


class _ContextCollector(Collector):
    """Values owned by the context and the store, read when scraped."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    def collect(self) -> Iterator[CounterMetricFamily | GaugeMetricFamily]:
        trips = CounterMetricFamily("gw_cypher_round_trips", "Cypher statements sent to Neo4j by this process.")
        trips.add_metric([], self.ctx.store.metrics.round_trips)
        yield trips
        walks = GaugeMetricFamily("gw_walks_in_flight", "Walks running now.")
        walks.add_metric([], self.ctx.walks_in_flight)
        yield walks
        cached = GaugeMetricFamily(
            "gw_walk_cache_entries", "Entries in the warm per-graph caches, by kind.", labels=["kind"]
        )
        # the expander's cache keeps vectors and node refs; bounded by the graph's size
        vectors, node_refs = self.ctx.cache_entries()
        cached.add_metric(["vectors"], vectors)
        cached.add_metric(["node_refs"], node_refs)
        yield cached
        cancelled = CounterMetricFamily(
            "gw_walks_cancelled",
            "Walks cut before their end: the request timed out or the client went away.",
            labels=["reason"],
        )
        for reason, count in sorted(self.ctx.walks_cancelled.items()):
            cancelled.add_metric([reason], count)
        yield cancelled
        draining = GaugeMetricFamily("gw_service_draining", "1 while shutting down (new work is refused).")
        draining.add_metric([], 1.0 if self.ctx.draining else 0.0)
        yield draining


class Metrics:
    def __init__(self, ctx: ServiceContext) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.walks = Counter("gw_walks", "Walks finished, by status.", ["status"], registry=r)
        self.walk_seconds = Histogram("gw_walk_seconds", "Wall time of a whole walk.", buckets=WALK_BUCKETS, registry=r)
        self.depth_seconds = Histogram(
            "gw_walk_depth_seconds", "Wall time of one walk depth (expand + decide).", buckets=DEPTH_BUCKETS, registry=r
        )
        self.decision_calls = Counter("gw_decision_calls", "Decision wire calls made by walks.", registry=r)
        self.tokens = Counter("gw_decision_tokens", "Decision tokens, by direction.", ["direction"], registry=r)
        self.cost = Counter("gw_decision_cost_usd", "Decision cost reported by the backends, in USD.", registry=r)
        self.requests = Counter(
            "gw_http_requests",
            "HTTP requests answered, by route and status.",
            ["method", "route", "status"],
            registry=r,
        )
        self.in_flight = Gauge("gw_http_requests_in_flight", "HTTP requests being answered now.", registry=r)
        self.rejected = Counter(
            "gw_http_rejected", "Requests refused before any work, by reason.", ["reason"], registry=r
        )
        self.jobs = Counter("gw_ingest_jobs", "Ingest jobs finished, by status.", ["status"], registry=r)
        r.register(_ContextCollector(ctx))
        ctx.on_walk_done.append(self.walk_done)
        ctx.on_depth_seconds.append(self.depth_seconds.observe)

    def job_done(self, status: str) -> None:
        self.jobs.labels(status=status).inc()

    def walk_done(self, finished: FinishedWalk) -> None:
        t = finished.totals
        self.walks.labels(status=finished.status).inc()
        self.walk_seconds.observe(t.wall_s)
        self.decision_calls.inc(t.decision_calls)
        self.tokens.labels(direction="input").inc(t.input_tokens)
        self.tokens.labels(direction="output").inc(t.output_tokens)
        if t.cost_usd:
            self.cost.inc(t.cost_usd)

    def render(self) -> bytes:
        return generate_latest(self.registry)
