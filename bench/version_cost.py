"""The CPU a new version of a round's standings costs, measured inside the application.

Run by ``bench/run.py`` in ``manage.py shell`` against the benchmark's database
(with the production settings of the benchmark's gunicorn): a judge's capture
finishes one entry still puzzling (through ``judging.services.capture_record``,
as the API does), and then the work a new version brings is timed with the
process's CPU clock (``time.process_time``), step by step, as the first poller
after the capture pays for it:

- ``rank``: ranking the round from the stored outcomes (``standings_ensure``);
- ``rows``: reading one heat's rows as the public sees them, and what else the
  heat's results table shows (``results.views._round_context``);
- ``fragment``: rendering that table (``results/round.html``'s partial, both its
  live and its printed copy) and gzipping it;
- ``api``: the whole round's JSON for the API, read, rendered and gzipped
  (``api.views.results.standings_json``).

A new version is ranked once; then each view of it that pollers ask for is built
once: a heat's table (``rows`` and ``fragment``: ``new_version_ms``), the API's
answer (``api``: ``new_api_version_ms`` with the ranking).

Before each sample, the minimal view (``/health/``) is asked for 20 times in the
same process, through Django's test client: its CPU per request shows the
machine's speed in the same minutes (it moves within a minute, by up to 1.7 times),
and a new version is reported in minimal views as well as in milliseconds.

Prints one line of JSON: the median of each step over the samples (and every
sample). No step reuses anything from the version before but what the
application keeps on purpose in the process (each result's ranking row, each
row's content and its rendered cells).
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from api.views.results import standings_json
from judging import capture_kinds
from judging import services as judging_services
from registration.models import Entry
from results import selectors, services, views
from results.live_poll import Version
from results.models import Result


def _capture(round_, entry_ref: str, judge) -> None:
    entry = Entry.objects.get(category=round_.category, ref=entry_ref)
    judging_services.capture_record(
        round_=round_,
        entry=entry,
        judge=judge,
        data=capture_kinds.CaptureInput(
            client_id=uuid.uuid4(), kind=capture_kinds.Kind.FINISH, at=datetime.now(UTC)
        ),
    )


# The minimal view's requests timed before each sample (their median CPU per request).
MINIMAL_VIEW_REQUESTS = 20


def _minimal_view_ms(client: Client) -> float:
    """Return the CPU of one request of the minimal view (``/health/``), in this process."""
    begin = time.process_time()
    for _ in range(MINIMAL_VIEW_REQUESTS):
        if client.get("/health/").status_code != 200:
            raise RuntimeError("the minimal view did not answer 200")
    return (time.process_time() - begin) * 1000 / MINIMAL_VIEW_REQUESTS


def measure(slug: str, round_key: str, heat: str, judge_username: str, entries: list[str]) -> dict:
    """Finish ``entries`` (of ``heat``, still puzzling) one by one; time each new version."""
    judge = get_user_model().objects.get(username=judge_username)
    waiting = list(
        Result.objects.filter(
            round__championship__slug=slug,
            round__key=round_key,
            heat__key=heat,
            status="pending",
            entry__ref__in=entries,
        ).values_list("entry__ref", flat=True)
    )
    # How much of the round has a result when the samples begin: the more, the dearer a ranking.
    results_in = (
        Result.objects.filter(round__championship__slug=slug, round__key=round_key)
        .exclude(outcome="")
        .count()
    )
    request = RequestFactory().get(
        f"/{slug}/results/{round_key}/?heat={heat}", HTTP_HX_REQUEST="true"
    )
    request.htmx = True
    steps: dict[str, list[float]] = {"rank": [], "rows": [], "fragment": [], "api": []}
    minimal: list[float] = []
    # The benchmark's settings allow its own host only.
    client = Client(HTTP_HOST="127.0.0.1")
    for entry_ref in waiting:
        minimal.append(_minimal_view_ms(client))
        round_ = selectors.round_for_request(slug, round_key)
        _capture(round_, entry_ref, judge)
        round_ = selectors.round_for_request(slug, round_key)
        with translation.override(round_.category.championship.language):
            begin = time.process_time()
            services.standings_ensure(round_)
            ranked = time.process_time()
            context = views._round_context(request, round_, "etag")
            read = time.process_time()
            html = render_to_string("results/round.html#results-table", context, request=request)
            Version.of("etag", html)
            rendered = time.process_time()
            Version.of("etag", standings_json(round_))
            api = time.process_time()
        steps["rank"].append((ranked - begin) * 1000)
        steps["rows"].append((read - ranked) * 1000)
        steps["fragment"].append((rendered - read) * 1000)
        steps["api"].append((api - rendered) * 1000)
    median = {name: statistics.median(values) for name, values in steps.items() if values}
    new_version = median["rank"] + median["rows"] + median["fragment"]
    reference = statistics.median(minimal)
    return {
        "samples": len(waiting),
        "results_in": results_in,
        "round_size": Result.objects.filter(
            round__championship__slug=slug, round__key=round_key
        ).count(),
        "median_ms": median,
        "new_version_ms": new_version,
        "new_api_version_ms": median["rank"] + median["api"],
        # The machine's speed in the same minutes: the minimal view, in the same process.
        "minimal_view_ms": reference,
        "new_version_minimal_views": new_version / reference,
        "all_ms": {name: [round(value, 1) for value in values] for name, values in steps.items()},
    }


def main(slug: str, round_key: str, heat: str, judge_username: str, entries: list[str]) -> None:
    print("VERSION_COST " + json.dumps(measure(slug, round_key, heat, judge_username, entries)))
