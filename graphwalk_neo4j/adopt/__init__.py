"""Adopt a user's own Neo4j graph without changing their data: introspect -> propose a profile -> namespaced,
additive, batched writes (``apply``); ``undo`` removes exactly the namespace. See docs/adopt.md."""
