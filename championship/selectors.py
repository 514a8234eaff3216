"""Read the championship's data for pages and the API (no writes here)."""

from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from championship.models import Category, Championship, Heat, Round
from championship.rules import eligibility
from registration.models import Entry, Person


def public_championships():
    """Return the publicly listed championships, the next first."""
    return Championship.objects.filter(is_public=True).order_by("-starts_at")


def categories_with_counts(championship: Championship):
    """Return the categories with confirmed, waitlisted and unpaid counts.

    Unpaid are the confirmed entries not paid: an entry on the waiting list or
    withdrawn owes nothing (``registration.payment.is_unpaid``).
    """
    confirmed = Q(entries__status=Entry.Status.CONFIRMED)
    due = confirmed & Q(entries__payment_status=Entry.Payment.UNPAID)
    return championship.categories.annotate(
        confirmed_count=Count("entries", filter=confirmed),
        waitlisted_count=Count("entries", filter=Q(entries__status=Entry.Status.WAITLISTED)),
        unpaid_count=Count("entries", filter=due),
    ).order_by("order", "key")


def rounds_with_heats(championship: Championship):
    """Return the rounds in schedule order, with their heats prefetched."""
    return (
        Round.objects.filter(championship=championship)
        .select_related("category")
        .prefetch_related(Prefetch("heats", queryset=Heat.objects.order_by("order", "key")))
        .order_by("category__order", "order")
    )


def confirmed_entries(category: Category):
    """Return the confirmed entries of a category, in registration order, with members."""
    return (
        category.entries.filter(status=Entry.Status.CONFIRMED)
        .prefetch_related("members")
        .order_by("registered_at", "id")
    )


# Registration states of a category.
OPEN = "open"
FULL = "full"
CLOSED = "closed"
NOT_OPEN = "not_open"


def registration_state(category: Category, *, now=None, confirmed: int | None = None) -> str:
    """Return whether a category takes registrations: open, full, closed or not_open.

    ``closed``: the championship's registration deadline has passed; ``not_open``:
    before the category's ``registration_opens_at``; ``full``: its capacity of
    confirmed entries is reached, so new entries go on the waiting list; ``open``
    otherwise. The confirmed count is taken from ``confirmed``, else from a
    ``confirmed_count`` annotation (``categories_with_counts``), else counted.
    """
    if now is None:
        now = timezone.now()
    if now >= category.championship.effective_registration_deadline():
        return CLOSED
    if category.registration_opens_at is not None and now < category.registration_opens_at:
        return NOT_OPEN
    if category.capacity is not None:
        if confirmed is None:
            confirmed = getattr(category, "confirmed_count", None)
        if confirmed is None:
            confirmed = category.entries.filter(status=Entry.Status.CONFIRMED).count()
        if confirmed >= category.capacity:
            return FULL
    return OPEN


def public_member(person: Person, published: set[str], day) -> dict:
    """Return a member as the public may see them: only with their own consent.

    A consenting member shows the fields the preset publishes (name; home town or
    nationality; age on the championship's date); any other member only that
    their name is withheld (``name`` is ``None``).
    """
    if not person.publish_consent:
        return {"name": None, "city": "", "nationality": "", "age": None}
    return {
        "name": person.name,
        "city": person.city if "city" in published else "",
        "nationality": person.country if "nationality" in published else "",
        "age": eligibility.age_on(person.birth_date, day)
        if "age" in published and person.birth_date
        else None,
    }


def public_entry_lists(championship):
    """Return each category with its confirmed entries as the public may see them.

    Consent is each member's: a consenting member shows the fields the preset
    publishes, another member is "Name withheld"; the entry's own name shows only
    when every member consents (an entry's consent, kept so by registration), as
    a pair's name is made of its members' names. Each entry says whether it is
    official, and whether it gave walk-over (not its reason, which is the
    organiser's). A fixed number of queries.
    """
    rules = championship.rules
    published = set(rules.published_fields)
    day = championship.local_date
    categories = list(categories_with_counts(championship))
    entries = (
        Entry.objects.filter(category__in=categories, status=Entry.Status.CONFIRMED)
        .prefetch_related(
            Prefetch("members", queryset=Person.objects.order_by("memberships__position"))
        )
        .order_by("registered_at", "id")
    )
    by_category: dict[int, list] = {category.pk: [] for category in categories}
    kinds = {category.pk: category.kind for category in categories}
    for entry in entries:
        members = list(entry.members.all())
        official = eligibility.officiality(
            kinds[entry.category_id], [m.rules_member() for m in members], rules
        )
        everyone = entry.name_published()
        shown = [public_member(m, published, day) for m in members]
        by_category[entry.category_id].append(
            {
                "official": official.official,
                "walkover": entry.walkover_at is not None,
                "name": entry.name if everyone else None,
                # Nothing of an entry whose members all withhold their names.
                "members": shown if any(m["name"] for m in shown) else [],
            }
        )
    for category in categories:
        category.public_entries = by_category[category.pk]
        category.registration_state = registration_state(category)
    return categories
