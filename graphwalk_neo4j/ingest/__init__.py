"""Structured ingest: parse triple, CSV and JSON Lines files into records (no database work here)."""
