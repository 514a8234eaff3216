"""QR codes of the venue's tables, and what a printed table card shows.

A table's QR code encodes the absolute address of ``/t/<token>/`` (the judge's
page of the table): on ``SITE_URL`` when set, else on the address the organiser
opened the cards at (see ``core.site_url``). Error correction M keeps
a card readable with a coffee stain on it; the quiet zone (four modules, as the
QR standard asks) keeps it readable on a busy table cloth.
"""

from __future__ import annotations

import io
from xml.etree import ElementTree

import qrcode
import qrcode.image.pil
import qrcode.image.svg
from django.http import HttpRequest
from django.urls import reverse

from championship.models import Table
from core import site_url

QUIET_ZONE = 4  # modules, the minimum of ISO/IEC 18004
ERROR_CORRECTION = qrcode.constants.ERROR_CORRECT_M


def table_url(table: Table, *, request: HttpRequest | None = None) -> str:
    """Return the absolute address a table's QR code opens."""
    path = reverse("judging:table", kwargs={"token": table.token})
    return site_url.absolute_url(path, request=request)


def qr_code(url: str) -> qrcode.QRCode:
    """Return the QR code of ``url``, in the smallest version that holds it."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECTION, border=QUIET_ZONE, box_size=10)
    code.add_data(url)
    code.make(fit=True)
    return code


def qr_svg(url: str, *, label: str = "") -> str:
    """Return the QR code of ``url`` as an SVG element for inline use in a page.

    One ``<path>`` draws every dark module; the size follows the CSS (the
    ``viewBox`` counts modules), and the path has no ``id``, so several codes
    can share a page. ``label`` is what a screen reader says (the URL by default).
    """
    image = qr_code(url).make_image(image_factory=qrcode.image.svg.SvgPathImage)
    svg = image.get_image()
    for attribute in ("width", "height"):
        svg.attrib.pop(attribute, None)
    svg.set("class", "qr")
    svg.set("role", "img")
    svg.set("aria-label", label or url)
    svg.set("shape-rendering", "crispEdges")
    for path in svg.iter("path"):
        path.attrib.pop("id", None)
    return ElementTree.tostring(svg, encoding="unicode")


def qr_png(url: str, *, box_size: int = 10) -> bytes:
    """Return the QR code of ``url`` as a black and white PNG (``box_size`` pixels a module)."""
    code = qr_code(url)
    code.box_size = box_size
    image = code.make_image(image_factory=qrcode.image.pil.PilImage)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
