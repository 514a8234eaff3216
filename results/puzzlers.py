"""A puzzler's history across championships: their public page, and a prior ranking from it.

puzzler
    One person across the championships on this site, recognised by their
    confirmed e-mail address (``registration.models.Puzzler``); a person who
    has not confirmed theirs is a puzzler of their own.
page
    ``/puzzlers/<ref>/`` lists every championship and round the puzzler took part
    in with consent to publication, with places, times and pieces per minute, and
    their personal best per piece count (completed puzzles of official rounds).
    Without a championship in which they consented, there is no page. Its name
    is that of the puzzler's latest consenting person.
confirmed link
    A person belongs to the puzzler of an address only once they confirmed it
    (``registration.addresses``), so the persons of a puzzler are its confirmed
    links (or, without an address, the one person of its own): the page and the
    prior ranking read nothing else.
prior ranking
    The first round of a championship may be seated by results in earlier
    recognised championships. The organiser chooses those earlier categories;
    an entry is ranked by the most recent of them in which one of its members
    placed, then by that place (the member's position in the category's final
    standings). A member counts only through a confirmed link, in both
    championships: an address typed but not confirmed matches no one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from championship.models import Category, Round
from registration.models import Entry, EntryMember, Person, Puzzler
from results.models import Result
from results.selectors import category_standings, pieces_per_minute
from results.services import standings_ensure_all

# The page --------------------------------------------------------------------------------------


def puzzler_results(puzzler: Puzzler) -> list[Result]:
    """Return the results of the puzzler's entries where they consented to publication.

    Newest championship first, then by round; places up to date.
    """
    entries = Entry.objects.filter(
        memberships__person__puzzler=puzzler, memberships__person__publish_consent=True
    )
    standings_ensure_all(Round.objects.filter(results__entry__in=entries).distinct())
    return list(
        Result.objects.filter(entry__in=entries)
        .exclude(outcome="")
        .select_related("entry", "round__category__championship")
        .prefetch_related(
            Prefetch("entry__members", queryset=Person.objects.order_by("memberships__position"))
        )
        .order_by(
            "-round__category__championship__starts_at", "round__category__order", "round__order"
        )
    )


@dataclass
class PersonalBest:
    kind: str
    kind_label: str
    pieces: int
    result: Result
    pace: float | None


def personal_bests(results: Sequence[Result]) -> list[PersonalBest]:
    """Return the best completed time per piece count and kind, from official rounds only."""
    best: dict[tuple[int, str], Result] = {}
    for result in results:
        if result.outcome != Result.Outcome.COMPLETED or not result.round.is_official:
            continue
        category = result.round.category
        key = (category.pieces, category.kind)
        if key not in best or result.final_ms < best[key].final_ms:
            best[key] = result
    return [
        PersonalBest(
            kind=kind,
            kind_label=best[(pieces, kind)].round.category.get_kind_display(),
            pieces=pieces,
            result=best[(pieces, kind)],
            pace=pieces_per_minute(pieces, best[(pieces, kind)]),
        )
        for pieces, kind in sorted(best)
    ]


@require_GET
def puzzler_page(request, ref):
    """Show a puzzler's public page: only with consent, else there is none.

    Its name is the latest consenting person's of the puzzler's own: persons who
    confirmed its address (or the one person of a puzzler without one), never
    someone who only typed the address.
    """
    puzzler = Puzzler.objects.filter(ref=ref).first()
    person = (
        Person.objects.filter(puzzler=puzzler, publish_consent=True)
        .order_by("-championship__starts_at", "-pk")
        .first()
        if puzzler is not None
        else None
    )
    if person is None:
        raise Http404(_("There is no such page."))
    results = puzzler_results(puzzler)
    championships = []
    for result in results:
        championship = result.round.category.championship
        if not championships or championships[-1]["championship"] != championship:
            championships.append({"championship": championship, "results": []})
        result.pace = pieces_per_minute(result.round.total_pieces, result)
        championships[-1]["results"].append(result)
    return render(
        request,
        "results/puzzler.html",
        {
            "name": person.name,
            "championships": championships,
            "bests": personal_bests(results),
        },
    )


# A prior ranking from history --------------------------------------------------------------------


def history_sources(category: Category) -> list[Category]:
    """Return the categories whose results may rank ``category``'s entries: same kind, earlier.

    Categories of championships on this site that started before this one, with
    at least one official round; the most recent first.
    """
    championship = category.championship
    return list(
        Category.objects.filter(
            kind=category.kind,
            championship__starts_at__lt=championship.starts_at,
            rounds__official_at__isnull=False,
        )
        .exclude(championship=championship)
        .select_related("championship")
        .distinct()
        .order_by("-championship__starts_at", "championship__name", "order", "key")
    )


@dataclass(frozen=True)
class HistoryRank:
    rank: int
    source: Category
    place: int
    # The entry's members whose confirmed address placed there, by name.
    matched_by: tuple[str, ...] = ()


def history_ranking(category: Category, sources: Sequence[Category]) -> dict[int, HistoryRank]:
    """Rank ``category``'s confirmed entries by their members' places in ``sources``.

    ``sources`` in order of precedence (the most recent first). An entry is
    ranked by the first source in which one of its members placed, then by the
    best such place; entries with no place in any source are not ranked. A
    member is recognised only through a confirmed address, here and there
    (``Person.address_state``): one who typed an address without confirming it
    is a puzzler of their own, and matches no one.
    Returns entry pk → rank (1, 2, …) with the source, place and members behind it.
    """
    confirmed = {"person__puzzler__email_key__isnull": False}
    positions: list[dict[int, int]] = []
    for source in sources:
        rows = [row for row in category_standings(source) if row["place"] is not None]
        refs = {row["entry"]["id"]: index for index, row in enumerate(rows, start=1)}
        by_puzzler: dict[int, int] = {}
        memberships = EntryMember.objects.filter(
            entry__category=source, entry__ref__in=refs, **confirmed
        ).values_list("person__puzzler_id", "entry__ref")
        for puzzler_id, ref in memberships:
            position = refs[ref]
            by_puzzler[puzzler_id] = min(position, by_puzzler.get(puzzler_id, position))
        positions.append(by_puzzler)
    members: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for entry_id, puzzler_id, name in (
        EntryMember.objects.filter(
            entry__category=category, entry__status=Entry.Status.CONFIRMED, **confirmed
        )
        .order_by("position")
        .values_list("entry_id", "person__puzzler_id", "person__name")
    ):
        members[entry_id][puzzler_id].append(name)
    keys: dict[int, tuple[int, int]] = {}
    matched: dict[int, tuple[str, ...]] = {}
    for entry_id, puzzlers in members.items():
        for index, by_puzzler in enumerate(positions):
            places = [by_puzzler[p] for p in puzzlers if p in by_puzzler]
            if places:
                keys[entry_id] = (index, min(places))
                matched[entry_id] = tuple(
                    name
                    for p, names in puzzlers.items()
                    if by_puzzler.get(p) == min(places)
                    for name in names
                )
                break
    ordered = sorted(keys, key=lambda pk: (keys[pk], pk))
    return {
        pk: HistoryRank(
            rank=rank,
            source=sources[keys[pk][0]],
            place=keys[pk][1],
            matched_by=matched[pk],
        )
        for rank, pk in enumerate(ordered, start=1)
    }
