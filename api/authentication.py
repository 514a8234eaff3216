"""The API's token authentication: DRF's, with the token and its user read in one written-out query.

Every capture a judge's phone sends is authenticated so; the ORM's building of
the token's query cost as much CPU as a third of the rest of the capture's
reads (see ``championship.sql``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication

from championship import sql


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's ``TokenAuthentication`` reads it."""

    def authenticate_credentials(self, key):
        token_model, user_model = self.get_model(), get_user_model()
        quote = connection.ops.quote_name
        query = (
            f"SELECT {sql.select_list(token_model, 't')}, {sql.select_list(user_model, 'u')}"
            f" FROM {sql.table(token_model)} t JOIN {sql.table(user_model)} u"
            f" ON u.{quote(user_model._meta.pk.column)}"
            f" = t.{quote(token_model._meta.get_field('user').column)}"
            f" WHERE t.{quote(token_model._meta.pk.column)} = %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(query, [key])
            row = cursor.fetchone()
        if row is None:
            # DRF's own refusal, in its words and their translations.
            return super().authenticate_credentials(key)
        (token, user), _rest = sql.split(row, token_model, user_model)
        token.user = user
        if not token.user.is_active:
            return super().authenticate_credentials(key)
        return (token.user, token)
