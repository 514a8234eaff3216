"""Submission tokens: a form that acts in bulk acts once, however often it is submitted.

Terms:

token
    A random id that the form carries in a hidden field, new each time the form
    is rendered; the same form submitted twice (a double click, a retry after a
    timeout, the browser's "send again") carries the same token.
claim
    The action's service stores the token (``submission_claim``) in the
    transaction of its change, before it acts. The database holds a token once
    per championship: a second submission waits for the first to commit, finds
    its token taken and raises ``SubmittedBefore`` instead of acting again. A
    change that rolls back takes its token with it, so a form that was refused
    can be corrected and sent again.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from championship.models import Championship, Submission, new_token

Action = Submission.Action
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

__all__ = ["Action", "SubmittedBefore", "new_token", "submission_claim", "token_valid"]


class SubmittedBefore(Exception):
    """The form was submitted before: its action is done, and is not done again."""

    def __init__(self, submission: Submission):
        super().__init__(f"{submission.action} {submission.token} was submitted before.")
        self.submission = submission


def token_valid(token: object) -> bool:
    """Return whether ``token`` has the shape of a submission token."""
    return isinstance(token, str) and TOKEN.fullmatch(token) is not None


def submission_claim(*, championship: Championship, token: str, action: str) -> Submission:
    """Store a form's token before its action; raise ``SubmittedBefore`` if it was stored before.

    Call it inside the transaction of the action. Refuse (``ValidationError``) a
    token that no form of the site rendered.
    """
    if not token_valid(token):
        raise ValidationError(
            {"submission": [_("This form is out of date: reload the page and send it again.")]}
        )
    try:
        with transaction.atomic():
            return Submission.objects.create(championship=championship, token=token, action=action)
    except IntegrityError:
        # Taken: by a submission that committed first, which this one waited for.
        earlier = Submission.objects.filter(championship=championship, token=token).first()
        if earlier is None:
            raise
        raise SubmittedBefore(earlier) from None
