"""The static web edition: a face over the public API that writes a hyperlinked site.

`build(kb, out)` (rules_kb/site/build.py) reads records through `rules_kb.open()` and
lays them out with the Jinja2 templates in `templates/`; `static/` holds the shared
CSS and JavaScript, the vendored search library and the icons. Both ship in the wheel.
"""

from __future__ import annotations

from rules_kb.site.build import Report, build
from rules_kb.site.folder import NotOurFolder

__all__ = ["NotOurFolder", "Report", "build"]
