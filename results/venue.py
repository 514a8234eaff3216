"""The venue screen at ``/<slug>/screen/``: it shows what the control room chose, and follows.

The projector opens ``/<slug>/screen/`` once. That address sends it on to the
page of the current choice (``control.screen``): a round's projector board,
a round's published seating, a category's podium or a message, with ``?venue=<version>``.
Those pages then ask ``/<slug>/venue/state/`` every few seconds
(``static/results/venue.js``); when the version has moved on (or the seating
shown was published anew, or taken back), they go back to ``/<slug>/screen/``,
which sends them to the new choice.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from championship.middleware import activate, finds_own_championship
from championship.models import Championship, Round
from results import selectors


def _championship(slug: str) -> Championship:
    championship = Championship.objects.filter(slug=slug).first()
    if championship is None:
        raise Http404(_("There is no such championship."))
    return championship


def target(championship: Championship) -> str:
    """Return the address of what the venue screen shows now, with its version."""
    state = championship.screen or {}
    slug = championship.slug
    show = state.get("show")
    query = {"venue": state.get("version", 0)}
    if show == "round":
        path = reverse("results:screen", args=[slug, state["round"]])
        if state.get("heat"):
            query["heat"] = state["heat"]
    elif show == "seating":
        # The projector's own page of the seating, not the website's. Seating the round again
        # takes its seating back, and publishing gives a new one: either is another page, which
        # the screen follows (venue.js), so that the hall never reads a seating that no longer is.
        path = reverse("control:seating_screen", args=[slug, state["round"]])
        published = (
            championship.rounds.filter(key=state["round"])
            .values_list("seating_published_at", flat=True)
            .first()
        )
        query["seating"] = int(published.timestamp() * 1000) if published else ""
    elif show == "podium":
        path = reverse("results:venue_podium", args=[slug, state["category"]])
    else:
        # A message, or nothing chosen yet: the championship's name.
        path = reverse("results:venue_message", args=[slug])
    return f"{path}?{urlencode(query)}"


@finds_own_championship
@never_cache
@require_GET
def venue(request, championship_slug):
    """Send the venue screen to what it shows now."""
    return redirect(target(_championship(championship_slug)))


@finds_own_championship
@never_cache
@require_GET
def state(request, championship_slug):
    """Answer what the venue screen shows: its version and address (asked every few seconds)."""
    championship = _championship(championship_slug)
    return JsonResponse(
        {"version": (championship.screen or {}).get("version", 0), "url": target(championship)}
    )


@finds_own_championship
@require_GET
def message(request, championship_slug):
    """Show the organiser's message on the venue screen (or the championship's name)."""
    championship = _championship(championship_slug)
    activate(request, championship)
    state = championship.screen or {}
    text = state.get("text", "") if state.get("show") == "message" else ""
    return render(
        request, "results/venue_message.html", {"championship": championship, "text": text}
    )


@finds_own_championship
@require_GET
def podium(request, championship_slug, category_key):
    """Show a category's podium: the prizes of its last round."""
    championship = _championship(championship_slug)
    activate(request, championship)
    category = championship.categories.filter(key=category_key).first()
    if category is None:
        raise Http404(_("There is no such category."))
    last = Round.objects.filter(category=category).order_by("-order").first()
    rows = selectors.category_standings(category) if last is not None else []
    places = sorted(
        (row for row in rows if last is not None and row["round"] == last.key and row["prize"]),
        key=lambda row: row["prize"],
    )
    return render(
        request,
        "results/venue_podium.html",
        {
            "championship": championship,
            "category": category,
            "round": last,
            "places": places,
            "official": last is not None and last.is_official,
        },
    )
