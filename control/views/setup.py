"""The organiser's "New championship" and "Edit championship" pages.

new
    Reached from the home page by users who may create championships
    (``championship.add_championship``). Step one: a preset, the name, the
    address (slug), the start and the venue. Choosing a preset fills in step
    two (an HTMX request for its region, or a button without JavaScript): the
    currency, language, time zone and each category with its rounds, all
    editable before saving. Saving calls ``services.championship_set_up``;
    the creator becomes the organiser.
edit
    Linked from the control room, for the championship's organisers: the
    championship's dates and place, each category and its rounds, and the
    rules parameter by parameter. Each section is a form of its own and saves
    through a service (``services``, ``editing``).

Dates and times are entered and shown in the championship's time zone.
"""

from __future__ import annotations

import re
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from championship import presets, services
from championship.errors import RoundStateError
from championship.middleware import page_language
from championship.models import Championship, Round
from championship.permissions import organiser_required
from control import editing
from control.edit_forms import CategoryEditForm, ChampionshipEditForm, RoundEditForm
from control.setup_forms import (
    CategorySetUpFormSet,
    NewChampionshipForm,
    RulesForm,
    preset_initial,
    time_zones,
)
from core import actions, l10n
from registration import places

NEW = "control/new.html"
EDIT = "control/edit.html"
CATEGORY_PREFIX = "category"
STEP_ONE = ("preset", "name", "slug", "starts_at", "venue")

# What a category's or a round's key can be; anything else is none.
KEY = re.compile(r"[-\w]{1,50}")


def may_create(user) -> bool:
    """Return whether ``user`` may create championships."""
    return user.is_active and user.has_perm(services.CREATE_PERMISSION)


def create_required(view):
    """Let only users who may create championships in; send anonymous users to log in."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_create(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


# New championship ------------------------------------------------------------------------


def _preset(value) -> str | None:
    return value if value in presets.PRESETS else None


def _filled(preset: str | None, step_one: dict) -> tuple[NewChampionshipForm, object]:
    """Return the form with step one as given and step two as the preset fills it in."""
    initial = dict(step_one)
    formset = None
    if preset:
        championship, categories = preset_initial(preset)
        initial.update(championship, preset=preset)
        formset = CategorySetUpFormSet(initial=categories, prefix=CATEGORY_PREFIX)
    return NewChampionshipForm(initial=initial), formset


def _new_context(form, formset, preset) -> dict:
    return {"form": form, "formset": formset, "preset": preset, "time_zones": time_zones()}


def _set_up_errors(error: ValidationError, form, formset) -> None:
    """Show the service's refusal by the fields it names, on the form or the category's row."""
    included = [f for f in formset.forms if f.cleaned_data.get("include")]
    fields = {"ruleset": "preset"}
    for key, messages_ in error.message_dict.items():
        parts = key.split(".")
        if parts[0] == "categories" and len(parts) > 1 and parts[1].isdigit():
            row = included[int(parts[1])] if int(parts[1]) < len(included) else None
            field = parts[-1] if len(parts) == 3 else None
            if row is not None:
                row.add_error(field if field in row.fields else None, messages_)
                continue
        name = fields.get(key, key)
        form.add_error(name if name in form.fields else None, messages_)


@require_http_methods(["GET", "POST"])
@create_required
def new(request):
    """Show "New championship"; with HTMX only the region the chosen preset fills in."""
    if request.method == "GET":
        preset = _preset(request.GET.get("preset"))
        form, formset = _filled(preset, {})
        context = _new_context(form, formset, preset)
        template = f"{NEW}#preset-fields" if request.htmx else NEW
        return render(request, template, context)

    preset = _preset(request.POST.get("preset"))
    if preset and ("fill" in request.POST or f"{CATEGORY_PREFIX}-TOTAL_FORMS" not in request.POST):
        # Without JavaScript the preset is applied by a button: keep what was typed in step one.
        step_one = {name: request.POST.get(name, "") for name in STEP_ONE}
        form, formset = _filled(preset, step_one)
        return render(request, NEW, _new_context(form, formset, preset))

    form = NewChampionshipForm(request.POST)
    formset = CategorySetUpFormSet(request.POST, prefix=CATEGORY_PREFIX) if preset else None
    valid = form.is_valid()
    if formset is not None and formset.is_valid() and valid:
        data = form.cleaned_data
        try:
            championship = services.championship_set_up(
                by=request.user,
                preset=data["preset"],
                name=data["name"],
                slug=data["slug"],
                starts_at=data["starts_at"],
                timezone=data["timezone"],
                venue=data["venue"],
                currency=data["currency"],
                language=data["language"],
                categories=formset.setups(),
                draft=True,
            )
        except ValidationError as error:
            _set_up_errors(error, form, formset)
        else:
            # In the control room's language, which the message is shown in.
            with translation.override(page_language(request, championship)):
                created = _(
                    "“%(name)s” is created as a draft, and you are its organiser. Only its "
                    "staff see it until you open registration: the checklist says what it needs."
                ) % {"name": championship.name}
            messages.success(request, created)
            return redirect("manage:control_room", championship_slug=championship.slug)
    return render(request, NEW, _new_context(form, formset, preset), status=200)


# Edit championship -----------------------------------------------------------------------

SECTIONS = ("championship", "category", "round", "rules")


def _category_forms(championship: Championship, bound=None) -> list:
    """Return each category with its form and its rounds' forms (one of them ``bound``)."""
    categories = list(places.categories_with_counts(championship))
    rounds = {}
    for round_ in championship.rounds.select_related("category").order_by(
        "category__order", "order"
    ):
        round_.championship = championship
        rounds.setdefault(round_.category_id, []).append(round_)
    for category in categories:
        category.championship = championship
        category.form = (
            bound
            if isinstance(bound, CategoryEditForm) and bound.instance.pk == category.pk
            else CategoryEditForm(instance=category)
        )
        category.round_list = rounds.get(category.pk, [])
        for round_ in category.round_list:
            round_.form = (
                bound
                if isinstance(bound, RoundEditForm) and bound.round.pk == round_.pk
                else RoundEditForm(round_=round_, last=round_ is category.round_list[-1])
            )
    return categories


def _edit_context(championship, *, championship_form=None, bound=None, rules_form=None) -> dict:
    return {
        "championship_form": championship_form or ChampionshipEditForm(instance=championship),
        "categories": _category_forms(championship, bound),
        "rules_form": rules_form or RulesForm(championship=championship),
        "zone": championship.timezone,
        "zone_name": l10n.zone_name(championship.timezone),
    }


def _edit_url(championship: Championship, anchor: str) -> str:
    # The page opens at the section saved, where its message is repeated (saved=).
    url = reverse("manage:edit", kwargs={"championship_slug": championship.slug})
    return f"{url}?saved={anchor}#{anchor}"


@require_http_methods(["GET", "POST"])
@organiser_required
def edit(request, championship):
    """Show "Edit championship"; save the section whose form was sent."""
    if request.method == "GET":
        return render(request, EDIT, _edit_context(championship))
    section = request.POST.get("section")
    if section == "championship":
        return _save_championship(request, championship)
    if section == "category":
        return _save_category(request, championship)
    if section == "round":
        return _save_round(request, championship)
    if section == "rules":
        return _save_rules(request, championship)
    messages.error(request, _("Nothing was saved: the page was out of date. Try again."))
    return redirect("manage:edit", championship_slug=championship.slug)


def _refused(request, championship, **forms_):
    messages.error(request, _("Not saved: see the form."))
    return render(request, EDIT, _edit_context(championship, **forms_))


def _save_championship(request, championship):
    form = ChampionshipEditForm(request.POST, instance=Championship.objects.get(pk=championship.pk))
    if form.is_valid():

        def action():
            services.championship_update(
                championship=championship,
                **{name: form.cleaned_data[name] for name in form.fields},
            )
            return _("The championship is saved.")

        if actions.run(request, action, form=form):
            return redirect(_edit_url(championship, "edit-championship"))
    return _refused(request, championship, championship_form=form)


def _posted_key(request) -> str:
    """Return the posted category or round key; "" for anything no key can be (a NUL byte)."""
    key = request.POST.get("key", "")
    return key if KEY.fullmatch(key) else ""


def _save_category(request, championship):
    category = championship.categories.filter(key=_posted_key(request)).first()
    if category is None:
        messages.error(request, _("There is no such category in this championship."))
        return redirect("manage:edit", championship_slug=championship.slug)
    form = CategoryEditForm(request.POST, instance=category)
    if form.is_valid():
        data = form.cleaned_data

        def action():
            changed = editing.category_update(category=category, **data)
            count = len(changed.promoted)
            message = _("%(category)s is saved.") % {"category": category.display_name}
            if count:
                message += " " + ngettext(
                    "%(count)s entry moved from the waiting list to confirmed.",
                    "%(count)s entries moved from the waiting list to confirmed.",
                    count,
                ) % {"count": count}
            return message

        if actions.run(request, action, form=form):
            return redirect(_edit_url(championship, f"category-{category.key}"))
    return _refused(request, championship, bound=form)


def _save_round(request, championship):
    round_ = championship.rounds.select_related("category").filter(key=_posted_key(request))
    round_ = round_.first()
    if round_ is None:
        messages.error(request, _("There is no such round in this championship."))
        return redirect("manage:edit", championship_slug=championship.slug)
    round_.championship = championship
    last = not Round.objects.filter(category=round_.category_id, order__gt=round_.order).exists()
    form = RoundEditForm(request.POST, round_=round_, last=last)
    if form.is_valid():
        data = form.cleaned_data

        def action():
            try:
                editing.round_update(round_=round_, **data)
            except RoundStateError as error:
                # The advancement locked by the next round's seating: said on the round's form.
                raise ValidationError(error.message) from None
            return _("%(category)s: %(round)s is saved.") % {
                "category": round_.category.display_name,
                "round": round_.display_name,
            }

        if actions.run(request, action, form=form):
            return redirect(_edit_url(championship, f"category-{round_.category.key}"))
    return _refused(request, championship, bound=form)


def _save_rules(request, championship):
    form = RulesForm(request.POST, championship=championship)
    if form.is_valid():

        def action():
            ranked = editing.rules_set(championship=championship, overrides=form.overrides())
            message = _("The rules are saved.")
            if ranked:
                message += " " + ngettext(
                    "%(count)s round with results is ranked anew.",
                    "%(count)s rounds with results are ranked anew.",
                    len(ranked),
                ) % {"count": len(ranked)}
            return message

        if actions.run(request, action, form=form):
            return redirect(_edit_url(championship, "edit-rules"))
    return _refused(request, championship, rules_form=form)
