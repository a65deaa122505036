"""bytes -> decode -> parse -> store: the ingest pipeline for one file's contents."""

from __future__ import annotations

import hashlib

from sqlite_utils import Database

from rules_kb.errors import EditionExists
from rules_kb.ingest import decode, parse, store
from rules_kb.ingest.models import Edition


def read_edition(data: bytes) -> tuple[Edition, decode.Decoded]:
    """Decode and parse one file's bytes; raises NotText, NotAnEdition or ParseFailure."""
    decoded = decode.decode(data)
    return parse.edition(decoded.text), decoded


def ingest_bytes(
    db: Database, data: bytes, *, source: str, replace: bool = False
) -> store.IngestResult:
    """Read one edition from bytes and store it in one transaction."""
    edition, decoded = read_edition(data)
    return ingest_read(db, data, edition, decoded, source=source, replace=replace)


def ingest_read(
    db: Database,
    data: bytes,
    edition: Edition,
    decoded: decode.Decoded,
    *,
    source: str,
    replace: bool = False,
) -> store.IngestResult:
    """Store an edition already read from `data` (by `read_edition`) in one transaction."""
    try:
        return store.ingest(
            db,
            edition,
            source=source,
            sha256=hashlib.sha256(data).hexdigest(),
            encoding=decoded.encoding,
            warnings=decoded.warnings,
            replace=replace,
        )
    except EditionExists as error:
        damage = "; ".join(decoded.warnings + edition.warnings)
        if damage:
            raise EditionExists(f"{error}; this copy: {damage}") from error
        raise
