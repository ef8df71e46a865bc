"""Evaluation on MetaQA: dataset loading (:mod:`.metaqa`), pure scoring (:mod:`.metrics`, :mod:`.calibration`),
the systems compared (graphwalk presets, the vector baseline, the Neo4j ceiling) and the resumable runner and
report; plus mining decisions for the learned decider (:mod:`.training`, :mod:`.distill`). The runner, the
ceiling and the miners read the graph in Neo4j; metrics and loaders do no I/O beyond files."""
