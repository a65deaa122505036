"""Search: the Whoosh index beside the database, the engine that reads it, and the
reading of questions as people type them."""
