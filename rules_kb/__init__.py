"""rules-kb: every edition of the Magic: The Gathering Comprehensive Rules.

    >>> import rules_kb
    >>> kb = rules_kb.open()            # $RULES_KB_DB, else the user data directory
    >>> kb.rule("702.19").text
    'Trample'

See `rules_kb.api.KnowledgeBase` for everything it answers.
"""

from __future__ import annotations

from rules_kb.api import KnowledgeBase, default_path, open

__all__ = ["KnowledgeBase", "__version__", "default_path", "open"]

__version__ = "0.2.0"
