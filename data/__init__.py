"""Facts the code reads (the edition catalogue); never CR text."""
