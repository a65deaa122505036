"""Variants: damaged or re-encoded copies ingest as their edition, or say what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_kb.errors import EditionExists
from rules_kb.ingest import pipeline, store
from tests.conftest import SHARED, run_cli, variant_files

VARIANTS = variant_files()


@pytest.mark.skipif(not VARIANTS, reason="../shared is not there")
@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name[:40])
def test_variant_is_its_edition_or_names_the_damage(path: Path, tmp_path: Path) -> None:
    date = path.name[:10]
    db = store.open_db(tmp_path / "v.db")
    original = pipeline.ingest_bytes(db, (SHARED / f"{date}.txt").read_bytes(), source="orig")
    assert original.status == "added"
    copy, decoded = pipeline.read_edition(path.read_bytes())
    assert copy.date == date
    same = store.content_hash(copy) == store.content_hash(
        pipeline.read_edition((SHARED / f"{date}.txt").read_bytes())[0]
    )
    warnings = list(decoded.warnings) + list(copy.warnings)
    try:
        result = pipeline.ingest_bytes(db, path.read_bytes(), source=path.name)
    except EditionExists as error:
        assert not same
        message = str(error)
        # the refusal names the damage: decoder/parser warnings, or how the text differs
        assert "--replace" in message
        assert warnings or "typography" in message, message
        assert all(warning in message for warning in warnings)
    else:
        assert same and result.status == "unchanged"
    if "mojibake" in path.name or "gbk" in path.name or "fffd" in path.name:
        assert warnings  # damage is never silent
    if "truncated" in path.name:
        assert any("truncated" in warning for warning in warnings)


@pytest.mark.corpus
def test_the_ingest_command_runs_the_collector_less_often_and_the_library_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collector's thresholds are process-wide: `rules-kb ingest` lowers how often it
    runs for its own work and puts them back; `kb.ingest_files` leaves them alone (an
    MCP server or another program keeps its own)."""
    import gc

    import rules_kb
    from rules_kb.cli.base import INGEST_GC_THRESHOLDS

    during: list[tuple[int, int, int]] = []
    real = store.ingest

    def ingest(*args: object, **kwargs: object) -> store.IngestResult:
        during.append(gc.get_threshold())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "ingest", ingest)
    before = gc.get_threshold()
    assert before != INGEST_GC_THRESHOLDS
    bad = tmp_path / "not-the-rules.txt"
    bad.write_text("Nothing to see here.\n")
    kb = rules_kb.open(tmp_path / "gc.db")
    outcomes = kb.ingest_files([SHARED / "2026-08-07.txt", bad], index=False)
    assert [o.error is None for o in outcomes] == [True, False]
    assert during == [before]
    run_cli("ingest", SHARED / "2026-06-19.txt", bad, "--db", tmp_path / "gc.db", "--no-index")
    assert during == [before, INGEST_GC_THRESHOLDS]
    assert gc.get_threshold() == before
