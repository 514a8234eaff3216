"""Live results: per round (polled with ETags), per category, the projector screen, exports.

An unchanged poll is answered ``304 Not Modified`` after one query (the round's
version); a changed one is rendered once per version and language and then
served from the shared cache, so any number of app servers answer alike.
"""

from __future__ import annotations

from functools import partial, wraps

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from championship.middleware import activate, finds_own_championship
from championship.models import Championship, Round
from core import csvfile
from results import csv_export, selectors
from results.live_poll import (
    Polled,
    UnknownHeat,
    answer_poll,
    heat_key_or_404,
    no_such_heat,
    poll_etag,
)


def _round(championship_slug: str, round_key: str) -> Round:
    round_ = selectors.round_for_request(championship_slug, round_key)
    if round_ is None:
        raise Http404(_("There is no such round."))
    return round_


def refusing_unknown_heats(view):
    """Answer a request for a heat the round does not have with 404 and the reason."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except UnknownHeat as error:
            return render(request, "404.html", {"reason": str(error)}, status=404)

    return wrapped


def heat_asked(request) -> str:
    """Return the heat a page shows (``?heat=``), or "" for all; raise 404 for no heat's key."""
    return heat_key_or_404(request.GET.get("heat", ""))


def _poll_language(request, championship_language: str) -> str:
    """Return the language the answer will be in: the visitor's choice, else the championship's."""
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return get_language()
    return championship_language


def _conditional(request, championship_slug, round_key, fragment: str, build):
    """Answer a poll of a page's fragment: 304 after one query when unchanged, else the fragment.

    ``build(round_, etag)`` renders the fragment, in the visitor's language and
    the championship's time zone; ``results.live_poll.answer_poll`` runs it at
    most once per version, language and heat, whatever the number of pollers and
    app servers, and one at a time.
    """

    def in_championship(round_: Round, etag: str) -> str:
        activate(request, round_.category.championship)
        return build(round_, etag)

    return answer_poll(
        request,
        championship_slug,
        round_key,
        Polled(fragment, heat_asked(request)),
        language=partial(_poll_language, request),
        render=in_championship,
    )


def _round_context(request, round_: Round, etag: str = "") -> dict:
    heat = heat_asked(request)
    # The rows name a heat by its key; people read its label ("Heat A", or its name), in
    # the language the template renders it in (the printed list: the championship's).
    by_key = {item.key: item for item in selectors.heats_of(round_)}
    if heat and heat not in by_key:
        raise no_such_heat()
    standings = selectors.standings(round_, heat or None)
    heats = sorted(by_key) if heat else sorted({row["heat"] for row in standings["rows"]})
    # Signed off: the results are official, the page stops polling and "Q" shows.
    official = standings["official"]
    # Only a heat that has not started has entries waiting: once the shown heats are
    # under way (as they are while results come in), there is nothing to look for.
    unstarted = any(
        item.started_at is None for key, item in by_key.items() if not heat or key == heat
    )
    waiting = selectors.waiting_rows(round_, heat or None) if unstarted else []
    if not heat:
        heats = sorted({*heats, *(row["heat"] for row in waiting)})
    rows = [{**row, "in_heat": by_key.get(row["heat"])} for row in standings["rows"] + waiting]
    unofficial = any(not row["official"] for row in rows)
    return {
        "round": round_,
        "category": round_.category,
        "championship": round_.category.championship,
        "standings": standings,
        "rows": rows,
        "heat": heat,
        "current_heat": by_key.get(heat),
        "heats": [(key, by_key.get(key)) for key in heats],
        "final": official,
        "provisional": standings["state"] == Round.State.CLOSED,
        "official_at": standings["official_at"],
        "corrections": standings["corrections"],
        "etag": etag,
        "show_prizes": round_.stage == Round.Stage.FINAL,
        "advancing": round_.advance != Round.Advance.NONE,
        # Qualification shows only once it can no longer change: before, a "Q" is a guess.
        "decided": official,
        "qualified_any": official and any(row["qualified"] for row in rows),
        "unofficial_any": unofficial,
        "waiting_any": bool(waiting),
        # Where everyone is official the official place is the place: one column says it.
        "show_official": unofficial
        or any(row["official_place"] != row["place"] for row in standings["rows"]),
        # Only the printed header needs the round's day: the template calls this when it does.
        "print_date": partial(selectors.round_date, round_, list(by_key.values())),
    }


@finds_own_championship
@require_GET
@refusing_unknown_heats
def round_results(request, championship_slug, round_key):
    """Show a round's results, all heats together; HTMX polls get the table alone."""
    if request.htmx:
        return _conditional(
            request,
            championship_slug,
            round_key,
            "table",
            lambda round_, etag: render_to_string(
                "results/round.html#results-table",
                _round_context(request, round_, etag),
                request=request,
            ),
        )
    round_ = _round(championship_slug, round_key)
    activate(request, round_.category.championship)
    context = _round_context(
        request,
        round_,
        poll_etag(round_.pk, round_.version, get_language(), "table", heat_asked(request)),
    )
    return render(request, "results/round.html", context)


@finds_own_championship
@require_GET
def index(request, championship_slug):
    """Show a championship's results: each category's rounds, standings and podium."""
    championship = Championship.objects.filter(slug=championship_slug).first()
    if championship is None:
        raise Http404(_("There is no such championship."))
    activate(request, championship)
    categories = []
    for category in championship.categories.order_by("order", "key"):
        rounds = list(Round.objects.filter(category=category).order_by("order"))
        standings = selectors.category_standings(category) if rounds else []
        # A "Q" shows only where the round's results are official.
        decided = {round_.key for round_ in rounds if round_.is_official}
        standings = [{**row, "decided": row["round"] in decided} for row in standings]
        last = rounds[-1] if rounds else None
        podium = [
            row
            for row in standings
            if last is not None and row["round"] == last.key and row["prize"]
        ]
        categories.append(
            {
                "category": category,
                "rounds": rounds,
                "standings": standings,
                "podium": podium,
                "show_official": any(
                    not row["official"] or row["official_place"] != row["place"]
                    for row in standings
                ),
            }
        )
    return render(
        request,
        "results/index.html",
        {"championship": championship, "categories": categories},
    )


@finds_own_championship
@require_GET
@refusing_unknown_heats
def screen(request, championship_slug, round_key):
    """Show the projector view: the big clock and the leaderboard, paging by itself.

    The clock's state (its heat's start and time-up, the limit, the motif) comes
    with the polled board, so a screen opened before the start runs once it starts.
    """

    def board(round_, etag):
        context = _round_context(request, round_, etag)
        context["recent"] = selectors.recent_finishers(context["rows"])
        context["clock"] = selectors.clock_state(round_)
        context["finished"] = sum(1 for row in context["rows"] if row["outcome"] == "completed")
        context["seated"] = not context["rows"] and round_.seats.exists()
        return render_to_string("results/screen.html#board", context, request=request)

    if request.htmx:
        return _conditional(request, championship_slug, round_key, "board", board)
    round_ = _round(championship_slug, round_key)
    championship = round_.category.championship
    activate(request, championship)
    etag = poll_etag(round_.pk, round_.version, get_language(), "board", heat_asked(request))
    clock = selectors.clock_state(round_)
    return render(
        request,
        "results/screen.html",
        {
            "round": round_,
            "category": round_.category,
            "championship": championship,
            "clock": clock,
            "board_html": board(round_, etag),
        },
    )


def _csv_response(filename: str, championship: Championship, table) -> HttpResponse:
    """Write the table ``table()`` makes, in the championship's language and dialect."""
    with translation.override(championship.language):
        lines = table()
    return csvfile.response(filename, lines, language=championship.language)


@finds_own_championship
@require_GET
def round_csv(request, championship_slug, round_key):
    """Download a round's results as CSV: names only with consent, no other personal data."""
    round_ = _round(championship_slug, round_key)
    standings = selectors.round_standings(round_)
    return _csv_response(
        f"{championship_slug}-{round_key}.csv",
        round_.category.championship,
        lambda: csv_export.table(
            standings["rows"],
            round_key=lambda row: round_.key,
            heats=csv_export.heat_labels(round=round_),
            official=lambda row: standings["official"],
        ),
    )


@finds_own_championship
@require_GET
def category_csv(request, championship_slug, category_key):
    """Download a category's final standings as CSV, without personal data."""
    championship = Championship.objects.filter(slug=championship_slug).first()
    category = championship and championship.categories.filter(key=category_key).first()
    if category is None:
        raise Http404(_("There is no such category."))
    signed_off = set(
        category.rounds.filter(state=Round.State.PUBLISHED).values_list("key", flat=True)
    )
    return _csv_response(
        f"{championship_slug}-{category_key}.csv",
        championship,
        lambda: csv_export.table(
            selectors.category_standings(category),
            round_key=lambda row: row["round"],
            heats=csv_export.heat_labels(round__category=category),
            official=lambda row: row["round"] in signed_off,
            with_round=True,
        ),
    )
