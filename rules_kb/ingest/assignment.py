"""scipy's `linear_sum_assignment`, loaded without the rest of `scipy.optimize`.

The solver is one compiled module, `scipy.optimize._lsap`, but importing it through its
package runs `scipy/optimize/__init__.py`, which imports every optimiser scipy has:
about a second of CPU, paid by every process that aligns an edition (an ingest of one
new edition among stored ones included). The extension module is loaded from its file
instead; if
that fails in any way (a scipy that lays its files out differently), the public import
is used, so the function is scipy's own either way.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

_NAME = "scipy.optimize._lsap"


@cache
def linear_sum_assignment() -> Callable[..., Any]:
    """scipy's solver for the assignment problem (`scipy.optimize.linear_sum_assignment`)."""
    found = _loaded_directly()
    if found is not None:
        return found
    from scipy.optimize import linear_sum_assignment as public  # type: ignore[import-untyped]

    return public  # type: ignore[no-any-return]


def _loaded_directly() -> Callable[..., Any] | None:
    """The function from the extension module's file, or None when that cannot be done."""
    try:
        package = importlib.util.find_spec("scipy")
        if package is None or not package.submodule_search_locations:
            return None
        folder = Path(next(iter(package.submodule_search_locations))) / "optimize"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / f"_lsap{suffix}"
            if path.is_file():
                loader = importlib.machinery.ExtensionFileLoader(_NAME, str(path))
                spec = importlib.util.spec_from_file_location(_NAME, path, loader=loader)
                if spec is None:
                    return None
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
                solver = getattr(module, "linear_sum_assignment", None)
                return solver if callable(solver) else None
    except (ImportError, OSError, AttributeError):
        return None
    return None
