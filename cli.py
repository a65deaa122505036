"""Shim so that `python cli.py ...` works from a checkout."""

from rules_kb.cli import main

main()
