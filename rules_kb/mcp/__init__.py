"""`rules-kb mcp`: the knowledge base as a Model Context Protocol server.

`start` answers the handshake before the SDK loads, then hands the session to `server`;
what both say about the server is here.
"""

#: The server's name in the handshake.
NAME = "rules-kb"
#: The longest answer, in characters; a longer one is given a page at a time.
MAX_ANSWER = 40_000

INSTRUCTIONS = (
    "Every edition of the Magic: The Gathering Comprehensive Rules, 1999 to today. Quote"
    " rules with their number and the edition each answer names; pass `edition` (a date,"
    " 'latest', or a set code such as BRO) to answer for the rules in force at another time."
    f" An answer longer than {MAX_ANSWER:,} characters comes in pages: it says which `page`"
    " to ask for next."
)
