"""What the Payments pages show: the statements with their counts, a statement's lines."""

from __future__ import annotations

from django.db.models import Count, Q, Sum

from championship.models import Championship
from payments.models import Statement, StatementLine

Status = StatementLine.Status


def statements(championship: Championship):
    """Return the championship's statements, newest first, with their lines counted by status."""
    counts = {
        f"{status}_count": Count("lines", filter=Q(lines__status=status))
        for status in Status.values
    }
    return (
        Statement.objects.filter(championship=championship)
        .select_related("uploaded_by", "applied_by")
        .annotate(total=Sum("lines__amount", filter=~Q(lines__status=Status.DUPLICATE)), **counts)
    )


def lines(statement: Statement) -> list[StatementLine]:
    return list(
        statement.lines.select_related("entry__category", "suggested__category").order_by(
            "position"
        )
    )
