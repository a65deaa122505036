"""`python -m rules_kb` runs the command line."""

from rules_kb.cli import main

main()
