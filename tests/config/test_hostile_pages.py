"""Hostile input at every URL, as each visitor: never a server error, always a bounded answer."""

from urllib.parse import quote, unquote_to_bytes, urlsplit

import pytest
from django.conf import settings
from django.shortcuts import resolve_url

from tests.config.hostile import PARAMETER, battery_for, hostile_json_bodies, routes
from tests.depth import DEEP

# The sweep is smaller in make test than in make test-deep (TEST_DEPTH=deep).
pytestmark = [pytest.mark.django_db, pytest.mark.deep]


# Hostile values, as they go on the wire (percent-encoded): a label and the value.
SURROGATE = "%ED%A0%80"  # a lone surrogate, U+D800, as UTF-8 bytes
VALUES = [
    ("NUL", quote("a\x00b")),
    ("CR/LF", quote("a\r\nSet-Cookie: b=c")),
    ("lone surrogate", f"a{SURROGATE}b"),
    ("10,000 characters", "x" * 10_000),
    ("20 digits", "9" * 20),
    ("-1", "-1"),
    ("1e309", "1e309"),
    ("year 1", "0001-01-01"),
    ("year 9999", quote("9999-12-31T23:59")),
]
# In a path: the same, and a token far longer than any the application makes.
PATH_VALUES = [
    ("NUL", "%00"),
    ("NUL in a token", "abc%00def"),
    ("CR/LF", "%0D%0A"),
    ("lone surrogate", SURROGATE),
    ("10,000 characters", "x" * 10_000),
    ("20 digits", "9" * 20),
    ("-1", "-1"),
]
# Query parameters that pages read, besides those their forms and links name.
QUERY_NAMES = [
    "heat",
    "page",
    "q",
    "next",
    "format",
    "sort",
    "status",
    "category",
    "round",
    "version",
    "since",
    "language",
    "replace",
    "seat",
]
# Fields posted where no page has a form for a URL.
FORM_NAMES = ["name", "email", "reason", "time", "seat", "heat", "table", "status", "next"]

LOGIN = resolve_url(settings.LOGIN_URL)

VISITORS = ("anonymous", "organiser of another championship", "organiser")
# The organiser reaches every page's code: theirs is the long sweep (tests/conftest.py).
VISITOR_PARAMS = [
    pytest.param(visitor, marks=[pytest.mark.long] if visitor == "organiser" else [])
    for visitor in VISITORS
]


def urlencoded(fields):
    """Return form fields (values already percent-encoded) as a request body."""
    return "&".join(f"{quote(name)}={value}" for name, value in fields.items())


def multipart(fields, files):
    """Return form fields (values percent-encoded) and files as a multipart body."""
    boundary = "hostile-boundary"
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + unquote_to_bytes(value)
            + b"\r\n"
        )
    for name, value in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="entries.csv"\r\nContent-Type: text/csv\r\n\r\n'.encode()
            + b"name;email\r\n"
            + unquote_to_bytes(value)
            + b";x@example.org\r\n\r\n"
        )
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def post_form(battery, form, fields, what):
    files = {name: fields.pop(name, "x") for name in form["files"]}
    if form["multipart"] or files:
        body, content_type = multipart(fields, files)
    else:
        body, content_type = urlencoded(fields), "application/x-www-form-urlencoded"
    return battery.send("post", form["action"], what, data=body, content_type=content_type)


def refused_at_the_door(response):
    """Whether a post was refused before its fields were read: forbidden, unknown, or to log in."""
    if response is None:
        return False
    if response.status_code in (403, 404):
        return True
    return response.status_code == 302 and urlsplit(response["Location"]).path == LOGIN


def values_for(battery, offset=0):
    """Return the hostile values a visitor gets at one URL.

    Deep (``make test-deep``): all for the organiser, a third for the others; quick
    (``make test``): two for the organiser, one for the others. The organiser reaches
    every page's code; the others are mostly refused, or see the public pages the
    organiser sees too. A sample changes with ``offset``, so that across the URLs every
    visitor meets every value.
    """
    deep, quick = (len(VALUES), 2) if battery.visitor == "organiser" else (3, 1)
    count = deep if DEEP else quick
    if count == len(VALUES):
        return VALUES
    step = len(VALUES) // count
    return [VALUES[(offset + i * step) % len(VALUES)] for i in range(count)]


def path_values_for(battery, number, offset):
    """Return the hostile values of a URL's ``number``-th path parameter, as ``values_for``.

    Deep: all for the organiser, every other one for the others; quick: two for the
    organiser, one for the others, changing with ``offset`` (the URL's number).
    """
    if DEEP:
        if battery.visitor == "organiser":
            return PATH_VALUES
        return PATH_VALUES[number % 2 :: 2]
    first = (offset + number) % len(PATH_VALUES)
    if battery.visitor == "organiser":
        return [PATH_VALUES[first], PATH_VALUES[(first + 3) % len(PATH_VALUES)]]
    return [PATH_VALUES[first]]


def hostile_query_strings(battery, world):
    """Every URL read with hostile query parameters (and If-None-Match)."""
    for number, (name, route) in enumerate(routes()):
        if name == ":logout":
            continue
        path = world.path(name, route)
        names = sorted(set(QUERY_NAMES) | world.query_names.get(path, set()))
        for label, value in values_for(battery, number):
            query = "&".join(f"{quote(n)}={value}" for n in names)
            etag = unquote_to_bytes(value).decode("latin-1")
            battery.send("get", f"{path}?{query}", f"query {label}", HTTP_IF_NONE_MATCH=etag)


# Deep, a form's fields are made hostile one at a time, the others as the page gave them;
# quick, three at a time (each still meets its hostile value, in fewer requests).
FIELDS_AT_ONCE = 1 if DEEP else 3


def hostile_form_fields(battery, world):
    """Every form of the pages, posted with hostile fields all at once and a few at a time.

    In a quick run a visitor refused at a form's door (forbidden, or sent to log in) is not
    sent its fields a few at a time: the refusal reads none of them.
    """
    posted = set()
    for number, form in enumerate(world.forms):
        posted.add(form["action"])
        names = sorted(set(form["fields"]) | form["files"])
        refused = []
        for index, (label, _) in enumerate(values_for(battery, number)):
            fields = {n: VALUES[(index + i) % len(VALUES)][1] for i, n in enumerate(names)}
            response = post_form(battery, form, fields, f"every field hostile, from {label}")
            refused.append(refused_at_the_door(response))
        if not DEEP and all(refused):
            continue
        for start in range(0, len(names), FIELDS_AT_ONCE):
            fields = {n: quote(v) for n, v in form["fields"].items()}
            made = []
            for index, name in enumerate(names[start : start + FIELDS_AT_ONCE], start):
                label, value = VALUES[(number + index) % len(VALUES)]
                fields[name] = value
                made.append(f"{name}={label}")
            post_form(battery, form, fields, ", ".join(made))
    # The URLs no page has a form for (those the control room's scripts post to, or
    # whose form shows in another state): common field names.
    for number, (name, route) in enumerate(routes()):
        path = world.path(name, route)
        if world.methods.get(name) != "post" or path in posted or name == ":logout":
            continue
        for label, value in values_for(battery, number):
            form = {"action": path, "multipart": False, "files": set()}
            post_form(battery, form, dict.fromkeys(FORM_NAMES, value), f"fields {label}")


def hostile_path_parameters(battery, world):
    """Every URL with a parameter, the parameter made hostile."""
    for offset, (name, route) in enumerate(routes()):
        if name == ":logout":
            continue
        method = world.methods.get(name, "get")
        for number, parameter in enumerate(PARAMETER.findall(route)):
            for label, value in path_values_for(battery, number, offset):
                path = world.path(name, route, override=(parameter, value))
                battery.send(method, path, f"{parameter}={label}")


@pytest.mark.parametrize("visitor", VISITOR_PARAMS)
def test_hostile_input_never_fails(harvested, counted_forms, visitor):
    """Hostile query strings, form fields, path parameters and JSON: never 500, bounded."""
    world = harvested
    battery = battery_for(visitor, world, counted_forms)
    hostile_query_strings(battery, world)
    hostile_form_fields(battery, world)
    hostile_path_parameters(battery, world)
    hostile_json_bodies(battery, world, set(world.api_bodies) - {"api:championship-import"})
    battery.check()
