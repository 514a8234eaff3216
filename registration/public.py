"""The entry lists as the public may see them: only what each member consents to."""

from django.db.models import Prefetch

from championship.rules import eligibility
from registration.models import Entry, Person
from registration.places import categories_with_counts, registration_state


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
