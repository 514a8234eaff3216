"""``makemessages`` that also finds the counted phrases of ``counted`` and ``counted_forms``.

The judging app formats a counted phrase with ``counted`` and hands the phone
both forms of one with ``counted_forms``; xgettext is told that their first two
arguments are a singular and a plural msgid (Django's documented way to add
keywords).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=counted:1,2",
        "--keyword=counted_forms:1,2",
    ]
