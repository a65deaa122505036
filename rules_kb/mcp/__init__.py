"""`rules-kb mcp`: the knowledge base as a Model Context Protocol server."""
