"""How a person with an account (an organiser, a judge, a head judge) is named on screen.

Staff signed in by a link have their name in the account's first name
(``championship.staff_links``); organisers have a first and last name. The
generated user name (``greta-domare-802325``) is shown only for an account with
no name at all.
"""

from __future__ import annotations


def full_name(*, first_name: str, last_name: str, username: str) -> str:
    """Return the name made of an account's fields: its full name, else its user name."""
    return f"{first_name} {last_name}".strip() or username


def person_name(user) -> str:
    """Return the name to show for ``user``: their full name, else their user name."""
    if user is None:
        return ""
    return full_name(
        first_name=user.first_name, last_name=user.last_name, username=user.get_username()
    )
