"""The options of training a learned decider, as plain dataclasses with their defaults: how questions are written
from a graph alone (:class:`SamplingOptions`, used by :mod:`.graph_questions`) and how the network is fitted
(:class:`FitOptions`, used by :mod:`.fit`).

They live apart from the code that uses them (NumPy, the Neo4j driver, torch) so that ``gw-neo4j decider train``
can show their defaults in ``--help`` and check its arguments without importing any of it; both modules
re-export them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SamplingOptions:
    questions: int = 4_500  # 1,500 per hop, what docs/eval.md measures (MetaQA: 6 min 43 s on 2 cores)
    max_hops: int = 3
    max_answers: int = 100
    max_frontier: int = 300
    seed: int = 0


@dataclass
class FitOptions:
    hidden: int = 256
    tok_dim: int = 32
    type_dim: int = 16
    pos_dim: int = 32
    epochs: int = 3  # MetaQA: validation loss flattens after 2-3; more epochs fit the templates (docs/eval.md)
    batch_size: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    dropout: float = 0.1
    seed: int = 0
    patience: int = 6
    augment: int = 2  # rewordings of each training decision's question (0: none)
    neighbours: int = 4  # stand-ins per graph word from a general vocabulary for the rewordings (0: lists only)
    members: int = 3  # independently seeded fits whose scores are averaged (seeds seed, seed + 1, ...)
    text_dim: int = 32  # width of each projection of the moves' words (0: moves by id only, as format 3)
    id_dropout: float = 0.25  # dropout on the learned (relation, direction) embeddings, so the words carry too
