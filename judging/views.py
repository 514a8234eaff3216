"""What a table's QR code opens on a judge's phone."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from championship.models import ChampionshipRole, Heat, Seat, Table
from championship.permissions import has_role


@require_GET
def table(request, token):
    """Show a judge the table behind a QR code and who sits there in the current heats."""
    table = get_object_or_404(Table.objects.select_related("championship"), token=token)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not has_role(request.user, table.championship, ChampionshipRole.Role.JUDGE):
        raise PermissionDenied
    seats = (
        Seat.objects.filter(table=table)
        .exclude(heat__state=Heat.State.CLOSED)
        .select_related("heat__round__category", "entry")
        .order_by("heat__round__category__order", "heat__round__order", "heat__order", "position")
    )
    return render(
        request,
        "judging/table.html",
        {"table": table, "championship": table.championship, "seats": seats},
    )
