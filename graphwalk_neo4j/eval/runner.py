"""The evaluation runner: the questions of a run, every system over them with bounded concurrency, one JSON line
per answered question as it finishes, and resume.

Layout of ``results/<run_id>/``:

* ``run.json`` — the run's spec and every system's settings, written when the run starts. Re-running with the
  same run id resumes only when these match (the concurrency, trace flag and progress do not count);
  otherwise :class:`~graphwalk_neo4j.errors.ConfigError` names what differs.
* ``questions.jsonl`` — one :class:`QuestionRecord` per (system, question), appended and flushed as each
  finishes. On resume the records already there are kept and only the missing pairs run. A line cut short by
  an interruption is dropped (the file is truncated back to its last complete line).
* ``results.json`` and ``summary.md`` — written by :mod:`.report` when the run completes.

Determinism: the question sample depends only on the seed (:func:`~.metaqa.sample`), and records are sorted
before reporting, so the same seed gives the same numbers whatever the concurrency (latencies aside).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import ConfigError, GraphwalkError, StoreAuthError, StoreUnavailableError
from graphwalk_neo4j.eval.answers import QASystem, SystemAnswer, count_round_trips
from graphwalk_neo4j.eval.calibration import write_reliability_diagram
from graphwalk_neo4j.eval.ceiling import follow_paths
from graphwalk_neo4j.eval.metaqa import MetaQAQuestion, load_questions, sample
from graphwalk_neo4j.eval.records import CEILING, MetaQAOptions, QuestionRecord, RunSpec, make_record
from graphwalk_neo4j.eval.report import build_results, environment, render_markdown
from graphwalk_neo4j.eval.systems import build_systems
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.ledger import document_id, document_key, get_document
from graphwalk_neo4j.graph.profile import load_profile
from graphwalk_neo4j.ingest.structured import (
    TypeMap,
    ingest_file,
    manifest_type_map_key,
    read_type_map,
    type_map_key,
)
from graphwalk_neo4j.learned.artifact import read_artifact_config
from graphwalk_neo4j.learned.qa import split_of
from graphwalk_neo4j.progress import QUIET, Progress, Relabelled
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.schema import apply_schema

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

VOLATILE_SETTINGS = ("concurrency", "trace")


# -- questions -------------------------------------------------------------------------------------------------


def select_questions(
    data_dir: str | Path,
    split: str,
    hops: Iterable[int],
    n: int | None,
    seed: int,
    keep: Callable[[MetaQAQuestion], bool] | None = None,
) -> list[MetaQAQuestion]:
    """Every question of each hop file (those ``keep`` accepts), or a seeded sample of ``n`` per hop; in
    (hops, line) order."""
    out: list[MetaQAQuestion] = []
    for k in hops:
        pool = [q for q in load_questions(data_dir, split, k) if keep is None or keep(q)]
        out.extend(sample(pool, n, seed) if n is not None else pool)
    return out


def heldout_filter(directory: str | Path) -> Callable[[MetaQAQuestion], bool]:
    """Questions a learned decider in ``directory`` never trained on: its ``test`` split (same seed and shares)."""
    split = read_artifact_config(directory).get("split") or {}
    if "seed" not in split:
        raise ConfigError(f"{directory} records no question split; --heldout needs an artifact trained from QA pairs")
    seed, val, test = int(split["seed"]), float(split["val"]), float(split["test"])
    return lambda q: split_of(seed, q.text_without_brackets, val, test) == "test"


# -- run directory ---------------------------------------------------------------------------------------------


class RunDir:
    """``results/<run_id>/`` and its files."""

    def __init__(self, root: str | Path, run_id: str) -> None:
        if not run_id or "/" in run_id or run_id.startswith("."):
            raise ConfigError(f"invalid run id {run_id!r}: use letters, digits, '-' and '_'")
        self.path = Path(root) / run_id
        self.run_json = self.path / "run.json"
        self.questions = self.path / "questions.jsonl"
        self.results_json = self.path / "results.json"
        self.summary_md = self.path / "summary.md"

    def settings(self, spec: RunSpec, systems: dict[str, dict[str, Any]]) -> dict[str, Any]:
        return {"spec": spec.model_dump(mode="json"), "systems": systems}

    def open(self, spec: RunSpec, systems: dict[str, dict[str, Any]], environment: dict[str, Any]) -> bool:
        """Create the run, or check that an existing one has the same settings. True when resuming."""
        current = self.settings(spec, systems)
        if self.run_json.is_file():
            stored = json.loads(self.run_json.read_text(encoding="utf-8"))
            diff = settings_diff(stored, current)
            if diff:
                raise ConfigError(
                    f"run {spec.run_id!r} exists with different settings ({'; '.join(diff[:5])}); "
                    "use another --run-id or the same options to resume"
                )
            return True
        self.path.mkdir(parents=True, exist_ok=True)
        payload = {**current, "environment": environment, "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        self.run_json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return False

    def load(self) -> dict[tuple[str, str], QuestionRecord]:
        """Records already written; a partial last line (from an interruption) is cut off the file."""
        if not self.questions.is_file():
            return {}
        data = self.questions.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with self.questions.open("r+b") as fh:
                fh.truncate(end)
        records: dict[tuple[str, str], QuestionRecord] = {}
        for line in data[:end].decode("utf-8").splitlines():
            if line.strip():
                record = QuestionRecord.model_validate_json(line)
                records[record.key] = record
        return records


def settings_diff(stored: dict[str, Any], current: dict[str, Any], prefix: str = "") -> list[str]:
    """Paths whose values differ between two settings trees, ignoring :data:`VOLATILE_SETTINGS`."""
    diffs: list[str] = []
    for key in sorted(set(stored) | set(current)):
        if key in VOLATILE_SETTINGS or key in ("environment", "started_at"):
            continue
        a, b = stored.get(key), current.get(key)
        where = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict):
            diffs.extend(settings_diff(a, b, where + "."))
        elif a != b:
            diffs.append(f"{where}: {a!r} -> {b!r}")
    return diffs


# -- running ---------------------------------------------------------------------------------------------------

_FATAL = (StoreUnavailableError, StoreAuthError, ConfigError)


async def answer_one(system: QASystem, question: MetaQAQuestion) -> QuestionRecord:
    """Ask one question; a system failure becomes an ``error`` record (an unreachable store aborts the run)."""
    started = time.perf_counter()
    with count_round_trips() as trips:
        try:
            answer = await system.answer(question.system_input())
        except _FATAL:
            raise
        except GraphwalkError as exc:
            answer = SystemAnswer(answers=[], status="error", stop_reason=f"{type(exc).__name__}: {exc}")
        if not answer.round_trips:
            answer.round_trips = trips[0]
    return make_record(system.name, question, answer, time.perf_counter() - started)


async def run_systems(
    systems: Sequence[QASystem],
    questions: Sequence[MetaQAQuestion],
    run_dir: RunDir,
    *,
    concurrency: int = 4,
    progress: Progress = QUIET,
) -> list[QuestionRecord]:
    """Answer every (system, question) pair not yet in ``questions.jsonl``; return all records, sorted."""
    done = run_dir.load()
    todo = [(s, q) for s in systems for q in questions if (s.name, q.id) not in done]
    total, finished = len(todo), 0
    items = iter(todo)
    with run_dir.questions.open("a", encoding="utf-8") as sink:

        async def worker() -> None:
            nonlocal finished
            for system, question in items:
                record = await answer_one(system, question)
                sink.write(record.model_dump_json() + "\n")
                sink.flush()
                done[record.key] = record
                finished += 1
                progress.advance("questions", finished, total)

        progress.advance("questions", 0, total)
        await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, total or 1)))))
    wanted = {q.id for q in questions}
    names = {s.name for s in systems}
    return sort_records(r for r in done.values() if r.question_id in wanted and r.system in names)


def sort_records(records: Iterable[QuestionRecord]) -> list[QuestionRecord]:
    return sorted(records, key=lambda r: (r.system, r.hops, r.line))


def write_records(run_dir: RunDir, records: Iterable[QuestionRecord]) -> None:
    """Append records computed outside :func:`run_systems` (the ceiling) unless already present."""
    done = run_dir.load()
    with run_dir.questions.open("a", encoding="utf-8") as sink:
        for record in records:
            if record.key not in done:
                sink.write(record.model_dump_json() + "\n")
                done[record.key] = record


# -- MetaQA end to end -----------------------------------------------------------------------------------------


def kb_file(data_dir: str | Path) -> Path:
    path = Path(data_dir) / "kb.txt"
    if not path.is_file():
        raise ConfigError(f"no MetaQA knowledge base at {path}: --data must hold kb.txt and qa_<split>_<k>hop.txt")
    return path


TYPE_MAP_WORDS = ("none", "metaqa")  # --type-map's words; anything else is a JSON file


def kb_type_map(data_dir: Path, choice: str | None = None) -> tuple[str, TypeMap]:
    """The type map a run loads ``kb.txt`` with, and its name for messages: ``choice`` (``--type-map``) is
    ``none`` (no types: a graph-only model infers its own), ``metaqa`` (MetaQA's) or a JSON file
    ``{relation: [subject type, object type]}``; without one, ``types.json`` beside ``kb.txt``, else MetaQA's."""
    if choice == "none":
        return "none", {}
    if choice == "metaqa":
        return "metaqa", metaqa_type_map()
    path = Path(choice) if choice is not None else data_dir / "types.json"
    if choice is not None or path.is_file():
        return str(path), read_type_map(path)
    return "metaqa", metaqa_type_map()


async def choose_type_map(store: GraphStore, graph: str, kb: Path, choice: str | None) -> tuple[str, TypeMap]:
    """The type map this run loads ``kb`` with (:func:`kb_type_map`), never one that would retype the graph:
    ingest retracts and reloads a document under another map, so a graph loaded untyped on purpose would be typed
    by an evaluation. Asked for a map (``--type-map``, or the folder's ``types.json``) that differs from the one
    ``graph`` holds ``kb`` under, the run is refused with one line naming the map it was loaded with where that is
    one of ``--type-map``'s words or the folder's ``types.json``; asked for none, a graph that holds ``kb`` is
    walked under the map it was loaded with."""
    existing = await get_document(store, document_key(graph, "files", document_id(kb, kb.parent)))
    complete = existing is not None and existing.get("complete") and existing.get("manifest")
    loaded = manifest_type_map_key(existing["manifest"]) if existing is not None and complete else None
    beside = kb.parent / "types.json"
    known = [(word, kb_type_map(kb.parent, word)[1]) for word in TYPE_MAP_WORDS]
    if beside.is_file():
        known.append((str(beside), read_type_map(beside)))
    was = next(((name, other) for name, other in known if type_map_key(other) == loaded), None)
    if choice is None and not beside.is_file() and was is not None:
        return was
    name, type_map = kb_type_map(kb.parent, choice)
    if loaded is None or loaded == type_map_key(type_map):
        return name, type_map
    walk_as_loaded = f"pass --type-map {was[0]}" if was else "pass the --type-map it was loaded with"
    raise ConfigError(
        f"graph {graph!r} already holds {kb} loaded with another type map than {name}, and this run would "
        f"retype it: to walk it as loaded {walk_as_loaded}; to load it with {name}, use a fresh --graph "
        f"(or `gw-neo4j drop-graph {graph}` first)"
    )


async def prepare_graph(
    store: GraphStore,
    data_dir: str | Path,
    graph: str,
    embedder: Embedder,
    progress: Progress = QUIET,
    type_map: str | None = None,
) -> dict[str, Any]:
    """Load ``kb.txt`` through the normal ingest path with the type map (:func:`choose_type_map`; skipped when
    the ledger already holds this exact file and map), then embed entities whose vector is missing or stale. An
    adopted graph (the KB in a user's own schema, ``gw-neo4j adopt``) is walked as it is: only its embeddings
    are brought up to date."""
    await apply_schema(store)
    profile = await load_profile(store, graph)
    if profile.adopted:
        progress.stage(f"graph {graph!r} is adopted ({', '.join(lp.label for lp in profile.labels)}); no ingest")
        embedded = await embed_graph(store, embedder, graph, profile=profile, progress=progress)
        return {"adopted": True, "embed": embedded.as_dict()}
    progress.stage(f"checking graph {graph!r} against {kb_file(data_dir)}")
    kb = kb_file(data_dir)
    chosen = await choose_type_map(store, graph, kb, type_map)
    loaded = await ingest_file(
        store,
        kb,
        graph=graph,
        type_map=chosen[1],
        root=kb.parent,  # doc id: kb.txt
        progress=Relabelled(progress, "ingest"),
    )
    progress.stage(f"ingest: {loaded.status} ({loaded.rows} rows, type map {chosen[0]})")
    embedded = await embed_graph(store, embedder, graph, progress=progress)
    if embedded.embedded:
        progress.stage(f"embedded {embedded.embedded} entities")
    return {"ingest": loaded.as_dict(), "type_map": chosen[0], "embed": embedded.as_dict()}


def run_spec(options: MetaQAOptions) -> RunSpec:
    return RunSpec(
        run_id=options.run_id,
        data_dir=str(Path(options.data_dir).resolve()),
        split=options.split,
        hops=options.hops,
        n=options.n,
        seed=options.seed,
        graph=options.graph,
        linking=options.linking,
        concurrency=options.concurrency,
        trace=options.trace,
        heldout=str(Path(options.heldout).resolve()) if options.heldout else None,
        type_map=options.type_map
        if options.type_map in (None, *TYPE_MAP_WORDS)
        else str(Path(options.type_map).resolve()),
    )


def ceiling_record(question: MetaQAQuestion, answers: list[str], latency_s: float) -> QuestionRecord:
    return make_record(CEILING, question, SystemAnswer(answers=answers, status="oracle"), latency_s)


async def run_metaqa(
    store: GraphStore,
    settings: Settings,
    options: MetaQAOptions,
    progress: Progress = QUIET,
) -> dict[str, Any]:
    """Prepare the graph, answer the questions with every selected system (resuming a run with the same id),
    compute the path ceiling, and write ``results.json`` and ``summary.md``. Returns the results document."""
    if options.linking not in ("gold", "resolve"):
        raise ConfigError(f"unknown linking {options.linking!r}: use gold or resolve")
    keep = heldout_filter(options.heldout) if options.heldout else None
    questions = select_questions(options.data_dir, options.split, options.hops, options.n, options.seed, keep)
    progress.stage(f"{len(questions)} questions ({options.split}, hops {options.hops}, seed {options.seed})")
    embedder = make_embedder(settings)
    preparation = await prepare_graph(
        store, options.data_dir, options.graph, embedder, progress, type_map=options.type_map
    )
    systems, closers = await build_systems(store, settings, options, embedder, progress)
    await embedder.embed(["warm-up"])  # load the model now, so the first question's latency does not pay for it
    try:
        run_dir = RunDir(options.results_dir, options.run_id)
        described = {s.name: s.describe() for s in systems}
        resumed = run_dir.open(run_spec(options), described, environment(store))
        progress.stage(f"{'resuming' if resumed else 'starting'} run {options.run_id!r} in {run_dir.path}")
        # The path ceiling follows MetaQA's relation names over :Entity nodes, so an adopted graph has none.
        typed = [q for q in questions if q.qtype] if not preparation.get("adopted") else []
        if typed:
            started = time.perf_counter()
            reached = await follow_paths(store, options.graph, typed)
            per_question = (time.perf_counter() - started) / len(typed)
            write_records(run_dir, [ceiling_record(q, reached.get(q.id, []), per_question) for q in typed])
        await run_systems(systems, questions, run_dir, concurrency=options.concurrency, progress=progress)
    finally:
        for close in closers:
            await close()
    wanted = {q.id for q in questions}
    names = {s.name for s in systems} | {"ceiling"}
    records = sort_records(r for r in run_dir.load().values() if r.question_id in wanted and r.system in names)
    run = json.loads(run_dir.run_json.read_text(encoding="utf-8"))
    run["preparation"] = preparation
    results = build_results(run, records, sweep_ks=list(range(1, 21)))
    run_dir.results_json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    run_dir.summary_md.write_text(render_markdown(results), encoding="utf-8")
    results["paths"] = {"results": str(run_dir.results_json), "summary": str(run_dir.summary_md)}
    diagram = write_reliability_diagram(
        results.get("calibration") or [],
        run_dir.path / "reliability.png",
        title=f"MetaQA {options.split} — run {options.run_id}",
    )
    if diagram is not None:
        results["paths"]["reliability"] = str(diagram)
    return results
