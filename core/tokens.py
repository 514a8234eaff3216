"""The shape of the tokens in the application's URLs (a manage link, a table's QR code).

``new_token`` (``championship.models``) makes them from the URL-safe base64
alphabet. A path segment that cannot be a token is refused before any query:
PostgreSQL refuses a NUL character in a query's text, and no stored token has one.
"""

import re

TOKEN_MAX_LENGTH = 64
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX_LENGTH}}}")


def is_token(text) -> bool:
    """Return whether ``text`` has the shape of a token (it may still be unknown)."""
    return isinstance(text, str) and TOKEN.fullmatch(text) is not None
