"""Evaluation on MetaQA: dataset loading (:mod:`.metaqa`), pure scoring (:mod:`.metrics`, :mod:`.calibration`),
the systems compared (graphwalk presets, the vector baseline, the Neo4j ceiling) and the resumable runner and
report. The runner and the ceiling read the graph in Neo4j; metrics and loaders do no I/O beyond files. Training
the learned decider lives in :mod:`graphwalk_neo4j.learned`."""
