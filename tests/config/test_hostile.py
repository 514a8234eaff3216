"""Hostile input at every URL: never a server error, always a bounded answer.

The suite walks every URL pattern of the project (the admin's excepted), fills
its parameters from a championship under way, and sends bad input as three
visitors: a stranger, an organiser of another championship, and this
championship's organiser. The input: query strings and form fields with NUL,
CR/LF, a lone surrogate (the bytes %ED%A0%80), 10,000 characters, numbers out of
range, dates at the ends of the calendar; path parameters alike; JSON bodies of
2 MB, nested 100,000 deep, of the wrong types, or with extra keys holding NUL.

The form fields are the ones the pages really have: the organiser's pages are
read first, and every form on them is posted with its fields made hostile one at
a time and all at once. Every request runs in a savepoint that is rolled back,
so each one meets the same championship.

An answer is bounded when it is smaller than ``BYTES_MAX``, took at most
``QUERIES_MAX`` queries and built at most ``FORMS_MAX`` forms. Each test collects
every URL and input that failed and lists them all at the end.
"""

import json
import re
import traceback
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes, urlsplit

import pytest
from django import forms
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from championship import staff_links
from championship.models import ChampionshipRole, Seat
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.services import standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR
from tests.paths import DATA, ROOT

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role

BYTES_MAX = 2_000_000
QUERIES_MAX = 150
FORMS_MAX = 200

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

VISITORS = ("anonymous", "organiser of another championship", "organiser")


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


@pytest.fixture
def world(db):
    """Championship A under way (a heat started, a result, a staff link); championship B."""
    a = factories.championship(slug="a", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC))
    b = factories.championship(slug="b", ruleset="sm")
    individual = a.categories.get(kind="individual")
    tables_create(championship=a, count=4)
    entry = factories.entry(individual, publish_consent=True)
    factories.entry(individual, publish_consent=True)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=30)
    heat.save()
    organiser = factories.role(a, Role.ORGANISER)
    judge = factories.role(a, Role.JUDGE)
    capture_record(
        round_=final,
        entry=entry,
        judge=judge,
        data=CaptureInput(
            client_id=str(uuid.UUID(int=1)), kind="finish", at=timezone.now() - timedelta(seconds=5)
        ),
    )
    standings_recompute(round_=final)
    seat = Seat.objects.filter(round=final, entry=entry).get()
    link = staff_links.link_create(championship=a, name="Kari", role=Role.JUDGE, by=organiser)
    superuser = factories.user(is_superuser=True, is_staff=True)
    values = {
        "championship_slug": a.slug,
        "round_key": final.key,
        "category_key": "individual",
        "heat_key": heat.key,
        "seat": seat.pk,
        "pk": entry.pk,
        "number": seat.table.number,
        "action": "start",
        "uidb64": "MQ",
        "link": link.pk,
        "judge_id": judge.pk,
    }
    tokens = {
        "judging:table": seat.table.token,
        "judging:table_state": seat.table.token,
        "judging:start_now": seat.table.token,
        "registration:manage": entry.manage_token,
        "registration:withdraw": entry.manage_token,
        ":sign_in": staff_links.sign_in_token(link),
        ":password_reset_confirm": "set-password",
    }
    capture = {
        "id": str(uuid.UUID(int=2)),
        "round": final.key,
        "entry": entry.ref,
        "kind": "finish",
        "at": timezone.now().isoformat(),
        "missing_found": 0,
        "missing_lost": 0,
    }
    document = json.loads((DATA / "interchange" / "small.json").read_text("utf-8"))
    api_bodies = {
        "api:championship-list": {
            "preset": "rogaland",
            "name": "New",
            "slug": "new",
            "starts_at": f"{NEXT_YEAR}-05-01T09:00:00Z",
            "categories": [{"kind": "individual", "capacity": 10, "fee": "100.00"}],
        },
        "api:championship-import": document,
        "api:entry-register": {
            "name": "Ola",
            "members": [{"name": "Ola", "email": "ola@example.org", "birth_date": "1990-01-01"}],
            "publish_consent": True,
        },
        "api:round-action": {"heat": heat.key, "heats": 1, "heat_sizes": [2]},
        "api:captures": capture,
        "api:judges": {"name": "Per", "email": "per@example.org", "role": "judge"},
        "api:judge": {},
    }
    users = {
        "organiser": organiser,
        "organiser of another championship": factories.role(b, Role.ORGANISER),
        "superuser": superuser,
    }
    built = World(values=values, tokens=tokens, users=users, api_bodies=api_bodies)
    harvest(built, Client(), organiser)
    return built


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


@pytest.fixture
def counted_forms(monkeypatch):
    """Count the forms each request builds; stop one that builds more than FORMS_MAX."""
    count = {"forms": 0}
    init = forms.BaseForm.__init__

    def counting_init(self, *args, **kwargs):
        count["forms"] += 1
        if count["forms"] > FORMS_MAX:
            raise TooManyForms(f"more than {FORMS_MAX} forms")
        init(self, *args, **kwargs)

    monkeypatch.setattr(forms.BaseForm, "__init__", counting_init)
    return count


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
    battery.send("post", form["action"], what, data=body, content_type=content_type)


def values_for(battery, offset=0):
    """Return the hostile values a visitor gets: all for the organiser, a third for the others.

    The organiser reaches every page's code; the others are mostly refused, or see the
    public pages the organiser sees too. Their third changes with ``offset``, so that
    across the URLs they meet every value.
    """
    if battery.visitor == "organiser":
        return VALUES
    return [VALUES[(offset + i * 3) % len(VALUES)] for i in range(3)]


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


def hostile_form_fields(battery, world):
    """Every form of the pages, posted with hostile fields all at once and one at a time."""
    posted = set()
    for number, form in enumerate(world.forms):
        posted.add(form["action"])
        names = sorted(set(form["fields"]) | form["files"])
        for index, (label, _) in enumerate(values_for(battery, number)):
            fields = {n: VALUES[(index + i) % len(VALUES)][1] for i, n in enumerate(names)}
            post_form(battery, form, fields, f"every field hostile, from {label}")
        for index, name in enumerate(names):
            label, value = VALUES[(number + index) % len(VALUES)]
            fields = {n: quote(v) for n, v in form["fields"].items()}
            fields[name] = value
            post_form(battery, form, fields, f"{name}={label}")
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
    for name, route in routes():
        if name == ":logout":
            continue
        method = world.methods.get(name, "get")
        for number, parameter in enumerate(PARAMETER.findall(route)):
            values = PATH_VALUES
            if battery.visitor != "organiser":  # as values_for: a sample for the others
                values = PATH_VALUES[number % 2 :: 2]
            for label, value in values:
                path = world.path(name, route, override=(parameter, value))
                battery.send(method, path, f"{parameter}={label}")


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
    # The interchange document has hundreds of values: a sample of them, the same each run.
    for index, path in enumerate(paths[:: max(1, len(paths) // 60)]):
        label, text = JSON_VALUES[index % len(JSON_VALUES)]
        yield f"{'.'.join(map(str, path))}={label}", json_with(document, path, text)
    for label, text in JSON_VALUES:
        body = json.dumps(dict.fromkeys(document, PLACEHOLDER)).replace(
            json.dumps(PLACEHOLDER), text
        )
        yield f"every key {label}", body


@pytest.mark.parametrize("visitor", VISITORS)
def test_hostile_input_never_fails(world, counted_forms, visitor):
    """Hostile query strings, form fields, path parameters and JSON: never 500, bounded."""
    battery = battery_for(visitor, world, counted_forms)
    hostile_query_strings(battery, world)
    hostile_form_fields(battery, world)
    hostile_path_parameters(battery, world)
    hostile_json_bodies(battery, world, set(world.api_bodies) - {"api:championship-import"})
    battery.check()


def test_hostile_json_never_fails_where_only_a_superuser_gets_to_the_body(world, counted_forms):
    """The import (and the creation of a championship) read a superuser's body too."""
    battery = battery_for("superuser", world, counted_forms)
    hostile_json_bodies(battery, world, {"api:championship-import", "api:championship-list"})
    battery.check()
