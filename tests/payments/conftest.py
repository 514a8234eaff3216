"""The payments tests' championships (``tests.payments.worlds``)."""

from tests.payments.worlds import denmark, norway, sweden  # noqa: F401 (fixtures)
