"""The learned decider: a small network over frozen embeddings that scores a walk's options, trained on one
graph's own decisions, and everything that trains it.

Using a model (NumPy only, no torch):

* :mod:`.model` — :class:`~graphwalk_neo4j.learned.model.LearnedDecider` (the decision backend behind
  ``--model learned:DIR``), its weights and forward pass;
* :mod:`.inputs` — what the model reads of a decision (:class:`~graphwalk_neo4j.learned.inputs.DecisionInputs`)
  and the per-option numbers computed from it;
* :mod:`.wording` — kin words and idioms that stand for hops (``grandparents``, ``do for a living``) written out;
* :mod:`.linker` — the mention scorer for linking from plain text;
* :mod:`.artifact` — the artifact directory's files, format version and recorded walk settings.

Training one (``gw-neo4j decider train``; torch):

* :mod:`.qa` — question–answer pairs: reading, the split by question, sampling;
* :mod:`.mining` — gold relation paths mined in Neo4j and the decisions teacher-forced along them;
* :mod:`.dataset` — mined decisions on disk, resumable;
* :mod:`.distill` — decisions from stored walks (imitating the backend that made them);
* :mod:`.augment` — rewordings of training questions;
* :mod:`.graph_questions` — questions written from the graph alone;
* :mod:`.role_types` — node types for a graph loaded without them, read from its structure;
* :mod:`.fit` — fitting, calibration and writing the artifact;
* :mod:`.training` — the pipeline from question–answer pairs to an artifact.
"""
