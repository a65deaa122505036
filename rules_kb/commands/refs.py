"""Commands for this concern; filled in by its issue."""
