#!/usr/bin/env python3
"""Read the championship's environment file the way systemd's EnvironmentFile= does.

    envfile.py exec FILE [NAME=VALUE ...] -- COMMAND ...   run COMMAND with FILE's variables
    envfile.py get FILE NAME                               print one variable
    envfile.py database-url URL NAME                       print URL with its database NAME

The scripts of ``deploy/`` use it where systemd does not run them (``restore.sh``,
``upgrade.sh``, ``championship-manage``), so that a value holding spaces or ``<``
(``DEFAULT_FROM_EMAIL=Championship <noreply@example.org>``) is read as systemd
reads it, which sourcing the file in a shell would not. Only the standard library.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import quote, urlsplit, urlunsplit


def parse(text: str) -> dict[str, str]:
    """Return the variables of an environment file.

    One ``NAME=value`` a line; blank lines and lines starting with ``#`` or ``;``
    are skipped; whitespace around the name and the value is dropped; a value
    in double or single quotes loses them (a backslash escapes the next
    character in double quotes). A ``#`` after a value is part of the value, as
    systemd reads it.
    """
    variables = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        name, sep, value = line.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name.replace("_", "a").isalnum() or name[0].isdigit():
            raise ValueError(f"line {number}: not NAME=value: {raw!r}")
        if len(value) >= 2 and value[0] == value[-1] == "'":
            value = value[1:-1]
        elif len(value) >= 2 and value[0] == value[-1] == '"':
            out, chars = [], iter(value[1:-1])
            for char in chars:
                out.append(next(chars, "\\") if char == "\\" else char)
            value = "".join(out)
        variables[name] = value
    return variables


def read(path: str) -> dict[str, str]:
    with open(path, encoding="utf-8") as file:
        return parse(file.read())


def with_database(url: str, name: str) -> str:
    """Return the database URL ``url`` with its database replaced by ``name``."""
    return urlunsplit(urlsplit(url)._replace(path="/" + quote(name)))


def main(argv: list[str]) -> int:
    usage = __doc__.split("\n\n")[1]
    if len(argv) >= 4 and argv[0] == "exec" and "--" in argv:
        split = argv.index("--")
        env = {**os.environ, **read(argv[1])}
        for assignment in argv[2:split]:
            name, _sep, value = assignment.partition("=")
            env[name] = value
        command = argv[split + 1 :]
        if not command:
            print(usage, file=sys.stderr)
            return 2
        os.execvpe(command[0], command, env)
    if len(argv) == 3 and argv[0] == "get":
        variables = read(argv[1])
        if argv[2] not in variables:
            print(f"envfile.py: {argv[2]} is not set in {argv[1]}", file=sys.stderr)
            return 1
        print(variables[argv[2]])
        return 0
    if len(argv) == 3 and argv[0] == "database-url":
        print(with_database(argv[1], argv[2]))
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
