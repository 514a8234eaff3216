"""A view's call of a service, and what the user is told of it.

A view parses the request, hands the service call to ``run`` as a function of no
arguments (an *action*) and then redirects or renders the page again, as ``run``
answers whether the call went through. The action returns what to tell on
success (or ``None``: nothing). A service refuses by raising: a ``ValidationError``,
or the errors an app names as its refusals (``refusals``). A refusal changes
nothing, since the service owns its transaction, and is told as an error in
the words ``say`` gives it; where a form gave the values, a ``ValidationError``
is shown on that form instead, at the fields it names (``refusal_on_form``).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

Action = Callable[[], str | None]


def refusal_text(error: Exception) -> str:
    """Return what to tell of a refusal: a ``ValidationError``'s messages, else its message."""
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return getattr(error, "message", str(error))


def refusal_on_form(form: forms.Form, error: ValidationError) -> None:
    """Show a refusal on a form: at the fields it names where the form has them, else above."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, messages_ in error.message_dict.items():
        form.add_error(name if name in form.fields else None, messages_)


def form_refusal(form: forms.Form) -> ValidationError:
    """Return an invalid form's errors as one refusal, to be told like a service's."""
    return ValidationError([message for errors in form.errors.values() for message in errors])


def run(
    request: HttpRequest,
    action: Action,
    *,
    refusals: tuple[type[Exception], ...] = (ValidationError,),
    say: Callable[[Exception], str] = refusal_text,
    form: forms.Form | None = None,
) -> bool:
    """Run ``action``; tell its message, or why it was refused; return whether it went through.

    The message is a success message (none when the action returns nothing or an
    empty text); a refusal (one of ``refusals``) is an error message in the words
    of ``say``, or, a ``ValidationError`` with ``form`` given, the form's errors.
    Any other exception is not a refusal, and goes on up.
    """
    try:
        message = action()
    except refusals as error:
        if form is not None and isinstance(error, ValidationError):
            refusal_on_form(form, error)
        else:
            messages.error(request, say(error))
        return False
    if message:
        messages.success(request, message)
    return True
