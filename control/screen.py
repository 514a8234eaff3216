"""The venue screen: what the projector at ``/<slug>/screen/`` shows, chosen in the control room.

One screen per championship. The organiser switches it between a round's board
(with its clock; one heat's, if chosen), the seating of a round (once it is
published), a category's podium and a message; the screen follows within
seconds (``results.venue``). Each switch moves the screen's version on, so a
screen showing a message whose text changed follows too.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from championship.models import Championship

SHOWS = ("round", "seating", "podium", "message")
MESSAGE_MAX = 280


@transaction.atomic
def screen_set(
    *,
    championship: Championship,
    show: str,
    round_key: str = "",
    heat: str = "",
    category_key: str = "",
    text: str = "",
) -> dict:
    """Switch the venue screen; return what it shows now. Raise ``ValidationError``."""
    locked = Championship.objects.select_for_update().get(pk=championship.pk)
    if show not in SHOWS:
        raise ValidationError({"show": [_("Choose what the screen shows.")]})
    state: dict = {"show": show}
    if show in ("round", "seating"):
        round_ = (
            locked.rounds.select_related("category").filter(key=round_key).first()
            if round_key
            else None
        )
        if round_ is None:
            raise ValidationError({"round": [_("Choose one of this championship's rounds.")]})
        if show == "seating" and round_.seating_published_at is None:
            # The projector shows only what the public may see.
            raise ValidationError(
                {
                    "round": [
                        _(
                            "The seating of “%(round)s” is not published: publish it first, "
                            "or choose a round whose seating is published."
                        )
                        % {"round": f"{round_.category.display_name}: {round_.display_name}"}
                    ]
                },
                code="seating_unpublished",
            )
        state["round"] = round_.key
        if show == "round" and heat:
            if not round_.heats.filter(key=heat).exists():
                raise ValidationError({"heat": [_("There is no such heat in this round.")]})
            state["heat"] = heat
    elif show == "podium":
        category = locked.categories.filter(key=category_key).first() if category_key else None
        if category is None:
            raise ValidationError(
                {"category": [_("Choose one of this championship's categories.")]}
            )
        state["category"] = category.key
    else:
        text = text.strip()
        if not text:
            raise ValidationError({"text": [_("Write the message to show.")]})
        if len(text) > MESSAGE_MAX:
            raise ValidationError(
                {"text": [_("At most %(max)s characters.") % {"max": MESSAGE_MAX}]}
            )
        state["text"] = text
    state["version"] = int(locked.screen.get("version", 0)) + 1
    locked.screen = state
    locked.save(update_fields=["screen", "updated_at"])
    return state
