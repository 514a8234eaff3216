"""The API's token authentication: DRF's, taking the token a capture read with its championship.

Every capture a judge's phone sends is authenticated so. A capture reads its
championship, the token, its user and the user's roles in that championship in
one written-out query (``championship_with_caller``, with
``judging.queries.championship_with_token``), and the authentication takes the
token from there; any other request's token is read by DRF, as DRF reads it.
"""

from __future__ import annotations

from rest_framework import authentication

from championship.models import Championship
from championship.permissions import roles_remember
from judging import queries


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's ``TokenAuthentication`` reads it."""

    def __init__(self):
        # (key, token, user) when the token was read with the request's championship.
        self.read = None

    def authenticate_credentials(self, key):
        if self.read is not None and self.read[0] == key:
            _key, token, user = self.read
            if user.is_active:
                return (user, token)
        # DRF's own reading, and its refusals in its words and their translations.
        return super().authenticate_credentials(key)


def token_key(request) -> str | None:
    """Return the key of a well-formed ``Authorization: Token <key>`` header, else ``None``."""
    words = authentication.get_authorization_header(request).split()
    if len(words) != 2 or words[0].lower() != TokenAuthentication.keyword.lower().encode():
        return None
    try:
        return words[1].decode()
    except UnicodeError:
        return None


def championship_with_caller(request, slug: str) -> Championship | None:
    """Return the championship of ``slug``, reading who calls with it; ``None`` if none.

    One written-out query reads the championship with the user's roles in it,
    and, for a request with a token (``Authorization: Token``), the token and its
    user: the token's authentication (``TokenAuthentication``) and the role checks
    (``championship.permissions.roles_of``) then read nothing more. Without a
    token the user is the session's, read as ``SessionAuthentication`` reads it.
    """
    key = token_key(request)
    if key is not None:
        caller = queries.championship_with_token(slug, key, TokenAuthentication().get_model())
        if caller is None:
            return None
        if caller.token is not None:
            roles_remember(caller.user, caller.championship.pk, caller.roles)
            for authenticator in request.authenticators:
                if isinstance(authenticator, TokenAuthentication):
                    authenticator.read = (key, caller.token, caller.user)
        return caller.championship
    user = getattr(request._request, "user", None)
    if user is None or not user.is_authenticated:
        return Championship.objects.filter(slug=slug).first()
    found = queries.championship_with_roles(slug, user.pk)
    if found is None:
        return None
    championship, roles = found
    roles_remember(user, championship.pk, roles)
    return championship
