"""The commands of rules-kb, one module per concern; importing them registers them."""
