"""The venue's tables: add, edit, group, rotate a QR token, download a QR code."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import cards, services
from championship import services as championship_services
from championship.models import Championship, Table
from championship.permissions import organiser_required
from control.forms import TableForm, TablesAddForm, TablesGroupForm
from control.views.common import ROTATE, TABLES
from core import actions

# Tables ----------------------------------------------------------------------------------------


def _tables_url(championship: Championship) -> str:
    return reverse("manage:tables", kwargs={"championship_slug": championship.slug})


def _table(championship: Championship, number: int) -> Table:
    table = get_object_or_404(Table, championship=championship, number=number)
    table.championship = championship
    return table


@require_http_methods(["GET", "POST"])
@organiser_required
def tables(request, championship):
    """List the venue's tables; add some."""
    form = TablesAddForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():

            def action():
                added = services.tables_create(
                    championship=championship,
                    count=form.cleaned_data["count"],
                    seats=form.cleaned_data["seats"],
                    group=form.cleaned_data["group"],
                )
                return ngettext(
                    "%(count)s table added (%(first)s).",
                    "%(count)s tables added (%(first)s–%(last)s).",
                    len(added),
                ) % {"count": len(added), "first": added[0].number, "last": added[-1].number}

            if actions.run(request, action):
                return redirect(_tables_url(championship))
        else:
            messages.error(request, _("No table added: see the form."))
    return _tables_page(request, championship, form=form)


def _tables_page(request, championship, *, form=None, group_form=None):
    listed = list(championship.tables.order_by("number"))
    for table in listed:
        table.form = TableForm(
            initial={
                "label": table.label,
                "seats": table.seats,
                "reserved_for_guests": table.reserved_for_guests,
                "group": table.group,
            },
            prefix=f"table-{table.number}",
        )
    if group_form is None:
        initial = {"first": listed[0].number, "last": listed[-1].number} if listed else {}
        group_form = TablesGroupForm(initial=initial, prefix="group")
    return render(
        request,
        TABLES,
        {
            "tables": listed,
            "form": form if form is not None else TablesAddForm(),
            "group_form": group_form,
            "groups": sorted({table.group for table in listed if table.group}),
        },
    )


@require_POST
@organiser_required
def tables_group(request, championship):
    """Put a range of tables in a group (a row of the venue), or take them out of theirs."""
    form = TablesGroupForm(request.POST, prefix="group")
    if not form.is_valid():
        messages.error(request, _("No table changed: see the form."))
        return _tables_page(request, championship, group_form=form)
    first, last, group = (form.cleaned_data[name] for name in ("first", "last", "group"))

    def action():
        changed = services.tables_set_group(
            championship=championship, first=first, last=last, group=group
        )
        if not changed:
            # Nothing to refuse, and nothing changed: said as an error, back to the list.
            messages.error(
                request,
                _("There is no table numbered %(first)s–%(last)s.")
                % {"first": first, "last": last},
            )
            return None
        if group:
            return ngettext(
                "%(count)s table (%(first)s–%(last)s) is in the group “%(group)s”.",
                "%(count)s tables (%(first)s–%(last)s) are in the group “%(group)s”.",
                changed,
            ) % {"count": changed, "first": first, "last": last, "group": group}
        return ngettext(
            "%(count)s table (%(first)s–%(last)s) is in no group.",
            "%(count)s tables (%(first)s–%(last)s) are in no group.",
            changed,
        ) % {"count": changed, "first": first, "last": last}

    if not actions.run(request, action):
        return _tables_page(request, championship, group_form=form)
    return redirect(_tables_url(championship))


@require_POST
@organiser_required
def table_edit(request, championship, number):
    """Change a table's label, seats, guest reservation or group."""
    table = _table(championship, number)
    form = TableForm(request.POST, prefix=f"table-{number}")

    def action():
        if not form.is_valid():
            raise actions.form_refusal(form)
        services.table_update(
            table=table,
            label=form.cleaned_data["label"].strip(),
            seats=form.cleaned_data["seats"],
            reserved_for_guests=form.cleaned_data["reserved_for_guests"],
            group=form.cleaned_data["group"],
        )
        return _("Table %(number)s is saved.") % {"number": number}

    actions.run(request, action)
    return redirect(_tables_url(championship))


@require_http_methods(["GET", "POST"])
@organiser_required
def table_rotate(request, championship, number):
    """Ask, then give a table a new QR token: its printed card stops working."""
    table = _table(championship, number)
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm the new QR code."))
            return redirect(
                "manage:table_rotate", championship_slug=championship.slug, number=table.number
            )
        rotated = championship_services.table_rotate_token(table=table)
        messages.success(
            request,
            _(
                "Table %(number)s has a new QR code (…%(token)s): print its card again; "
                "the old one no longer opens the table."
            )
            % {"number": number, "token": rotated.token[-6:]},
        )
        return redirect(_tables_url(championship))
    return render(request, ROTATE, {"table": table})


@require_GET
@organiser_required
def table_qr(request, championship, number):
    """Download a table's QR code as a PNG."""
    table = _table(championship, number)
    response = HttpResponse(cards.qr_png(cards.table_url(table)), content_type="image/png")
    response["Content-Disposition"] = f'attachment; filename="table-{table.number}.png"'
    response["Cache-Control"] = "private, no-store"
    return response
