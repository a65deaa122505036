"""One small exception per failure. The CLI maps each to exit code 1."""


class RulesKbError(Exception):
    """Base class: a request that was understood but cannot be answered."""


class NotText(RulesKbError):
    """The input is not a plain-text document (empty, binary, PDF, HTML)."""


class NotAnEdition(RulesKbError):
    """The text is readable but is not an edition of the Comprehensive Rules."""


class ParseFailure(RulesKbError):
    """The text could not be parsed; the message is one line (GrammarRejected keeps the
    parser's context in `details`)."""


class EditionExists(RulesKbError):
    """Different text for an edition date that is already stored (use --replace)."""


class UnknownEdition(RulesKbError):
    """No stored edition matches the --edition value."""


class UnknownRule(RulesKbError):
    """No rule with that number in the edition."""


class AmbiguousRule(UnknownRule):
    """A rule number that named different rules in different editions, asked for without
    an edition."""


class UnknownTerm(RulesKbError):
    """No glossary entry matches the term."""


class EmptyDatabase(RulesKbError):
    """The database holds no editions yet."""


class SearchIndexError(RulesKbError):
    """The full-text index beside the database cannot be opened, built or updated."""


class TooLong(RulesKbError):
    """An argument longer than its face accepts (see rules_kb.bounds); nothing was done."""


class BadSearchQuery(RulesKbError):
    """The search query is empty (whoosh reads any other text as a query)."""


class BadCatalogue(RulesKbError):
    """The edition catalogue (data/editions.toml) is malformed or inconsistent."""


class NetworkError(RulesKbError):
    """The server could not be reached or did not answer in time (after the retries)."""


class HttpError(RulesKbError):
    """The server answered with an HTTP error status (404, 500, ...)."""


class NoRulesLink(RulesKbError):
    """The rules page links no Comprehensive Rules .txt file."""


class TruncatedDownload(RulesKbError):
    """The download stopped short, or the rules text it carried stops before its end."""


class BadRuleNumber(RulesKbError):
    """A rule number longer than any rule number can be (3 digits, a dot, 4 digits, 2 letters)."""


class GrammarRejected(ParseFailure):
    """The grammar could not place the text at one line and column. The message is one
    line; `details` keeps the parser's multi-line context (for a verbose report)."""

    def __init__(self, message: str, *, line: int = 0, column: int = 0, details: str = "") -> None:
        super().__init__(message)
        self.line = line
        """The 1-based line of the decoded text where parsing stopped."""
        self.column = column
        """The 1-based column on that line."""
        self.details = details
        """What the parser expected there, over several lines."""


class BadOption(RulesKbError):
    """An option value no download can use: a timeout that is not a finite number of
    seconds, a backoff too long to sleep, a URL that is no http(s) URL."""


class GivenUp(RulesKbError):
    """The caller gave the request up (a server's deadline, a client's cancel)."""
