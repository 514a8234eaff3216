"""The site's bearer tokens: how they are made, stored, compared, and what shape they have.

A bearer token is a secret in a URL (a private link, a sign-in link, a table's
QR code): whoever holds it is let in. The rules, for every token of the site:

random
    ``new_token`` makes 128 random bits, in the URL-safe base64 alphabet.
derived
    A token that must be shown again (printed on a badge, put in a later mail)
    but not stored is derived from a stored random ``nonce`` with the site's key
    (HMAC-SHA256 of the nonce with ``SECRET_KEY``, under a salt naming its use):
    ``derived_token``. The database holds the nonce and the token's hash; without
    the key, neither gives the token. ``stored_token`` finds it again under
    ``SECRET_KEY`` or any of ``SECRET_KEY_FALLBACKS``, so that a key change keeps
    the token showable while the old key is a fallback.
stored as a hash
    ``token_hash`` (SHA-256) is what is stored and looked up: a lookup compares
    hashes in the database's index, never the secret, and guessing among 2^128
    tokens is pointless. A hash looked up never depends on the key, so a token
    keeps working after any key change.
compared
    Two secrets are compared in constant time only: ``same``.
shape
    A path segment that cannot be a token is refused before any query
    (``is_token``): PostgreSQL refuses a NUL character in a query's text, and no
    token has one.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

from django.conf import settings
from django.utils.crypto import salted_hmac

TOKEN_MAX_LENGTH = 64
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX_LENGTH}}}")
TOKEN_BYTES = 16  # 128 bits
# A derived token: 22 characters of URL-safe base64.
DERIVED_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
NONCE_LENGTH = 32  # ``new_nonce``: 128 bits in hexadecimal
HASH_LENGTH = 64  # ``token_hash``: SHA-256 in hexadecimal


def new_token() -> str:
    """Return an unguessable random token for a URL (128 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_nonce() -> str:
    """Return a random nonce to derive a token from (128 bits, hexadecimal)."""
    return secrets.token_hex(TOKEN_BYTES)


def site_keys() -> tuple[str, ...]:
    """Return the site's keys, the current one first: ``SECRET_KEY``, then its fallbacks."""
    return (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ()))


def derived_token(nonce: str, *, salt: str, key: str | None = None) -> str:
    """Return the token derived from ``nonce`` for the use ``salt`` (with ``SECRET_KEY``)."""
    digest = salted_hmac(
        salt, nonce, secret=settings.SECRET_KEY if key is None else key, algorithm="sha256"
    ).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    """Return the hash under which a token is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_derived(*, salt: str) -> tuple[str, str]:
    """Return a new nonce and the hash of the token derived from it (with ``SECRET_KEY``)."""
    nonce = new_nonce()
    return nonce, token_hash(derived_token(nonce, salt=salt))


def stored_token(nonce: str, stored_hash: str, *, salt: str) -> str | None:
    """Return the token of ``nonce`` whose hash is ``stored_hash``.

    ``None`` when no key the site knows made it (its key was dropped from
    ``SECRET_KEY_FALLBACKS``): the token still opens its page, it can no longer
    be shown.
    """
    if not nonce or not stored_hash:
        return None
    for key in site_keys():
        token = derived_token(nonce, salt=salt, key=key)
        if same(token_hash(token), stored_hash):
            return token
    return None


def same(first: str, second: str) -> bool:
    """Return whether two secrets are equal, in constant time."""
    return secrets.compare_digest(first.encode(), second.encode())


def is_token(text) -> bool:
    """Return whether ``text`` has the shape of a token (it may still be unknown)."""
    return isinstance(text, str) and TOKEN.fullmatch(text) is not None


def is_derived_token(text) -> bool:
    """Return whether ``text`` has the shape of a derived token (it may still be unknown)."""
    return isinstance(text, str) and DERIVED_TOKEN.fullmatch(text) is not None
