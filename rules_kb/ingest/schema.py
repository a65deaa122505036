"""The schema version this code expects, readable without importing the writer."""

#: `PRAGMA user_version` of a database that has every migration of `rules_kb.ingest.store`.
VERSION = 87
