"""The read side: lookups, history and `where`, diffs, citations, the reference graph
and change feeds, all read from the stored database."""
