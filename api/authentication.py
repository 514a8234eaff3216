"""The API's token authentication: DRF's, with the token and its user read in one written-out query.

Every capture a judge's phone sends is authenticated so; the ORM's building of
the token's query cost as much CPU as a third of the rest of the capture's
reads (see ``championship.sql``). A capture reads its championship, the token,
its user and the user's roles in that championship in one query
(``championship_with_caller``), and the authentication takes the token from there.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication

from championship import sql
from championship.models import Championship, ChampionshipRole
from championship.permissions import roles_remember


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's ``TokenAuthentication`` reads it."""

    def __init__(self):
        # (key, token, user) when the token was read with the request's championship.
        self.read = None

    def authenticate_credentials(self, key):
        if self.read is not None and self.read[0] == key:
            _key, token, user = self.read
        else:
            token, user = self._token_and_user(key)
        if token is None or not user.is_active:
            # DRF's own refusal, in its words and their translations.
            return super().authenticate_credentials(key)
        return (user, token)

    def _token_and_user(self, key):
        query = (
            f"SELECT {_columns()} FROM {sql.table(_token_model())} t"
            f" JOIN {_user_join()} WHERE t.{_quote(_token_model()._meta.pk.column)} = %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(query, [key])
            row = cursor.fetchone()
        if row is None:
            return None, None
        (token, user), _rest = sql.split(row, _token_model(), get_user_model())
        token.user = user
        return token, user


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _token_model():
    """Return the token's model, as ``TokenAuthentication.get_model`` does."""
    from rest_framework.authtoken.models import Token

    return TokenAuthentication.model or Token


def _columns() -> str:
    """The columns of the token (table ``t``) and of its user (``u``)."""
    return f"{sql.select_list(_token_model(), 't')}, {sql.select_list(get_user_model(), 'u')}"


def _user_join() -> str:
    """The token's user (``u``), after ``JOIN`` or ``LEFT JOIN``."""
    user_model = get_user_model()
    return (
        f"{sql.table(user_model)} u ON u.{_quote(user_model._meta.pk.column)}"
        f" = t.{_quote(_token_model()._meta.get_field('user').column)}"
    )


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
        return _championship_with_token(request, slug, key)
    user = getattr(request._request, "user", None)
    if user is None or not user.is_authenticated:
        return sql.get(Championship, "t.slug = %s", [slug])
    query = (
        f"SELECT {sql.select_list(Championship, 'ch')}, ro.role"
        f" FROM {sql.table(Championship)} ch"
        # The user's roles in this championship (a row each).
        f" LEFT JOIN {sql.table(ChampionshipRole)} ro"
        " ON ro.championship_id = ch.id AND ro.user_id = %s"
        " WHERE ch.slug = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [user.pk, slug])
        rows = cursor.fetchall()
    if not rows:
        return None
    (championship,), _role = sql.split(rows[0], Championship)
    roles_remember(user, championship.pk, frozenset(row[-1] for row in rows if row[-1]))
    return championship


def _championship_with_token(request, slug: str, key: str) -> Championship | None:
    token_model, user_model = _token_model(), get_user_model()
    query = (
        f"SELECT {sql.select_list(Championship, 'ch')}, {_columns()}, ro.role"
        f" FROM {sql.table(Championship)} ch"
        # The token, its user and the user's roles in this championship (a row each).
        f" LEFT JOIN {sql.table(token_model)} t ON t.{_quote(token_model._meta.pk.column)} = %s"
        f" LEFT JOIN {_user_join()}"
        f" LEFT JOIN {sql.table(ChampionshipRole)} ro"
        f" ON ro.championship_id = ch.id AND ro.user_id = u.{_quote(user_model._meta.pk.column)}"
        " WHERE ch.slug = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [key, slug])
        rows = cursor.fetchall()
    if not rows:
        return None
    (championship, token, user), _role = sql.split(rows[0], Championship, token_model, user_model)
    if token is not None:
        token.user = user
        roles_remember(user, championship.pk, frozenset(row[-1] for row in rows if row[-1]))
        for authenticator in request.authenticators:
            if isinstance(authenticator, TokenAuthentication):
                authenticator.read = (key, token, user)
    return championship
