"""Regions a registrant can live in, for presets whose eligibility is residence in a region."""

from django.utils.translation import gettext_lazy as _

OUTSIDE = "outside"

# Norway's counties (fylker), as from 1 January 2024.
NORWEGIAN_COUNTIES = (
    "Agder",
    "Akershus",
    "Buskerud",
    "Finnmark",
    "Innlandet",
    "Møre og Romsdal",
    "Nordland",
    "Oslo",
    "Rogaland",
    "Telemark",
    "Troms",
    "Trøndelag",
    "Vestfold",
    "Vestland",
    "Østfold",
)


def region_choices(region: str) -> list[tuple[str, str]]:
    """Return the choices for "where do you live" under a preset whose region is ``region``."""
    counties = NORWEGIAN_COUNTIES if region in NORWEGIAN_COUNTIES else (region,)
    return [("", "—"), *((county, county) for county in counties), (OUTSIDE, _("Elsewhere"))]
