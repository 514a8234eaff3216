"""Hostile input at every URL: never a server error, always a bounded answer.

The suite walks every URL pattern of the project (the admin's excepted), fills
its parameters from a championship under way, and sends bad input as three
visitors: a stranger, an organiser of another championship, and this
championship's organiser. The input: query strings and form fields with NUL,
CR/LF, a lone surrogate (the bytes %ED%A0%80), 10,000 characters, numbers out of
range, dates at the ends of the calendar; path parameters alike; JSON bodies of
2 MB, nested 100,000 deep, of the wrong types, or with extra keys holding NUL.

The form fields are the ones the pages really have: the organiser's pages are
read first, and every form on them is posted with its fields made hostile all at
once and one at a time (three at a time in a quick run). Every request runs in a
savepoint that is rolled back, so each one meets the same championship.

An answer is bounded when it is smaller than ``BYTES_MAX``, took at most
``QUERIES_MAX`` queries and built at most ``FORMS_MAX`` forms. Each test collects
every URL and input that failed and lists them all at the end.
"""

import json
import re
import traceback
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver

from tests.depth import DEEP
from tests.paths import ROOT

BYTES_MAX = 2_000_000
QUERIES_MAX = 150
FORMS_MAX = 200


def routes(resolver=None, namespace="", prefix=""):
    """Yield (name, route) of every URL pattern of the project, the admin's excepted."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            yield from routes(
                pattern, pattern.namespace or namespace, prefix + str(pattern.pattern)
            )
        elif isinstance(pattern, URLPattern):
            yield f"{namespace}:{pattern.name}", prefix + str(pattern.pattern)


PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


@dataclass
class World:
    values: dict
    tokens: dict
    users: dict
    api_bodies: dict
    forms: list = field(default_factory=list)
    query_names: dict = field(default_factory=dict)
    methods: dict = field(default_factory=dict)

    def path(self, name, route, override=None):
        """Return the path of a route with this world's parameters (one may be overridden)."""
        if "^" in route:  # a regular expression: the API's catch-all
            return "/" + route.split("^")[0] + "no/such/endpoint/"

        def fill(match):
            parameter = match.group(1)
            if override and override[0] == parameter:
                return override[1]
            if parameter == "token":
                return self.tokens.get(name, "no-such-token")
            return str(self.values.get(parameter, "x"))

        return "/" + PARAMETER.sub(fill, route)


class FormReader(HTMLParser):
    """Collect a page's forms (action, method, enctype, fields) and its links' query names."""

    def __init__(self):
        super().__init__()
        self.forms = []
        self.query_names = set()
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "?" in (attrs.get("href") or ""):
            query = urlsplit(attrs["href"]).query
            self.query_names.update(part.split("=")[0] for part in query.split("&") if part)
        elif tag == "form":
            self.forms.append(
                {
                    "action": attrs.get("action") or "",
                    "method": (attrs.get("method") or "get").lower(),
                    "multipart": "multipart" in (attrs.get("enctype") or ""),
                    "fields": {},
                    "files": set(),
                }
            )
        elif self.forms and tag in ("input", "select", "textarea", "button"):
            name = attrs.get("name")
            if not name or name == "csrfmiddlewaretoken":
                return
            fields = self.forms[-1]["fields"]
            if tag == "input" and attrs.get("type") == "file":
                self.forms[-1]["files"].add(name)
            elif tag == "input" and attrs.get("type") in ("checkbox", "radio"):
                if "checked" in attrs or name not in fields:
                    fields[name] = attrs.get("value", "on")
            elif tag != "button":
                fields.setdefault(name, attrs.get("value") or "")
            if tag == "textarea":
                self._textarea = name

    def handle_data(self, data):
        if self._textarea and self.forms:
            self.forms[-1]["fields"][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None


def harvest(world, client, organiser):
    """Read every page as the organiser: the forms, and the query names of the links."""
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    seen = set()
    for name, route in routes():
        if name == ":logout":
            continue
        path = world.path(name, route)
        response = client.get(path)
        # A URL that only takes a POST is sent its hostile paths as a POST.
        world.methods[name] = "post" if response.status_code == 405 else "get"
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        reader = FormReader()
        reader.feed(response.content.decode(errors="replace"))
        world.query_names[path] = reader.query_names
        for form in reader.forms:
            action = urlsplit(form["action"]).path or path
            if not action.startswith("/"):
                continue
            if form["method"] == "get":
                world.query_names[action] = world.query_names.get(action, set()) | set(
                    form["fields"]
                )
                continue
            key = (action, tuple(sorted(form["fields"])))
            if key not in seen:
                seen.add(key)
                world.forms.append({**form, "action": action})
    # Past the first pages: the registration form, whatever a test before left.
    assert any("/register/" in form["action"] for form in world.forms), world.forms


class TooManyForms(Exception):
    """More forms than a request may build."""


@dataclass
class Battery:
    """A visitor's client, and every failure met: URL, input and what went wrong."""

    client: Client
    visitor: str
    count: dict
    failures: list = field(default_factory=list)
    requests: int = 0

    def send(self, method, path, what, **kwargs):
        """Send one request in a savepoint rolled back after it; note what went wrong."""
        self.count["forms"] = 0
        self.requests += 1
        shown = path if len(path) < 200 else path[:120] + "…"
        where = f"{self.visitor}: {method.upper()} {shown} [{what}]"
        session = self.client.cookies.get(settings.SESSION_COOKIE_NAME)
        savepoint = transaction.savepoint()
        try:
            with CaptureQueriesContext(connection) as queries:
                response = getattr(self.client, method)(path, **kwargs)
        except Exception as error:  # the test client lets nothing through; but if
            self.failures.append(f"{where}: raised {last_frame(error)}")
            return None
        finally:
            transaction.savepoint_rollback(savepoint)
            cache.clear()  # throttles and cached fragments start afresh
            if session is not None:
                self.client.cookies[settings.SESSION_COOKIE_NAME] = session.value
        if response.status_code >= 500:
            exc_info = getattr(response, "exc_info", None)
            reason = last_frame(exc_info[1]) if exc_info else "no exception"
            if exc_info and isinstance(exc_info[1], TooManyForms):
                reason = f"built more than {FORMS_MAX} forms"
            self.failures.append(f"{where}: {response.status_code} {reason}")
        size = len(response.content) if not response.streaming else 0
        if size > BYTES_MAX:
            self.failures.append(f"{where}: answered {size} bytes")
        if len(queries) > QUERIES_MAX:
            self.failures.append(f"{where}: {len(queries)} queries")
        return response

    def check(self):
        assert self.requests, "no request was sent"
        if self.failures:
            pytest.fail(
                f"{len(self.failures)} of {self.requests} hostile requests failed:\n"
                + "\n".join(self.failures),
                pytrace=False,
            )


PROJECT = ROOT


def last_frame(error):
    """Return an exception's type, message, and the last frame of the project's code it met."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [
        frame
        for frame in frames
        if frame.filename.startswith(str(PROJECT)) and "/.venv/" not in frame.filename
    ]
    where = ""
    if ours or frames:
        frame = (ours or frames)[-1]
        where = f" at {Path(frame.filename).relative_to(PROJECT) if ours else frame.filename}"
        where += f":{frame.lineno} in {frame.name}"
    return f"{type(error).__name__}: {str(error)[:120]}{where}"


def battery_for(visitor, world, counted_forms):
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if visitor != "anonymous":
        client.force_login(world.users[visitor])
    return Battery(client=client, visitor=visitor, count=counted_forms)


def hostile_json_bodies(battery, world, names):
    """The API endpoints that read a body, sent hostile JSON."""
    for name, route in routes():
        if name not in names:
            continue
        path = world.path(name, route)
        method = "delete" if name == "api:judge" else "post"
        for what, body in json_bodies(world.api_bodies[name]):
            battery.send(method, path, what, data=body, content_type="application/json")


def json_paths(value, prefix=()):
    """Yield the path of every value in a JSON document."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from json_paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from json_paths(child, (*prefix, index))


def replaced(document, path, value):
    """Return a copy of ``document`` with the value at ``path`` replaced."""
    copy = json.loads(json.dumps(document))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return copy


# Wrong types and absurd values, as JSON text (a lone surrogate needs its escape).
JSON_VALUES = [
    ("null", "null"),
    ("a list", "[]"),
    ("an object", '{"a": 1}'),
    ("true", "true"),
    ("NUL", '"a\\u0000b"'),
    ("lone surrogate", '"a\\ud800b"'),
    ("10,000 characters", json.dumps("x" * 10_000)),
    ("20 digits", "9" * 20),
    ("1e309", "1e309"),
    ("-1", "-1"),
    ("year 1", '"0001-01-01T00:00:00Z"'),
    ("year 9999", '"9999-12-31T23:59"'),
]
PLACEHOLDER = "\x1fhostile\x1f"


def json_with(document, path, text):
    """Return ``document`` as JSON text with the value at ``path`` replaced by ``text``."""
    return json.dumps(replaced(document, path, PLACEHOLDER)).replace(json.dumps(PLACEHOLDER), text)


def json_bodies(document):
    """Yield (what, body) of hostile JSON bodies made from a valid ``document``."""
    yield "2 MB", json.dumps({**document, "name": "x" * 2_000_000})
    yield "a list nested 100,000 deep", "[" * 100_000 + "]" * 100_000
    yield "an object nested 100,000 deep", '{"a":' * 100_000 + "1" + "}" * 100_000
    yield "not JSON", "{"
    yield "invalid UTF-8", b'{"name": "\xff\xfe"}'
    for label, text in JSON_VALUES[:4]:
        yield f"the document is {label}", text
    extra = json.dumps({**document, "x": PLACEHOLDER})
    yield (
        "extra keys with NUL",
        extra.replace(
            json.dumps("x") + ": " + json.dumps(PLACEHOLDER), '"\\u0000": "\\u0000", "a\\u0000": 1'
        ),
    )
    yield (
        "extra key with a lone surrogate",
        extra.replace(json.dumps("x") + ": " + json.dumps(PLACEHOLDER), '"\\ud800": "\\ud800"'),
    )
    paths = list(json_paths(document))
    # The interchange document has hundreds of values: a sample of them, the same each run
    # (60 in a deep run, 20 in a quick one).
    sample = 60 if DEEP else 20
    for index, path in enumerate(paths[:: max(1, len(paths) // sample)]):
        label, text = JSON_VALUES[index % len(JSON_VALUES)]
        yield f"{'.'.join(map(str, path))}={label}", json_with(document, path, text)
    for label, text in JSON_VALUES:
        body = json.dumps(dict.fromkeys(document, PLACEHOLDER)).replace(
            json.dumps(PLACEHOLDER), text
        )
        yield f"every key {label}", body
