"""Ingest: bytes of an edition to stored, aligned records.

decode -> parse (with refs) -> store, then align -> lineage against the neighbouring
editions; `session` drives it for many files, `fetch` downloads official editions."""
