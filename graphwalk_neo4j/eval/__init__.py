"""Evaluation: pure scoring (metrics) and dataset loaders (MetaQA); nothing here talks to Neo4j."""
