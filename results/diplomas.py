"""Diplomas: a printed page per placed result of an official round, that anyone can verify.

A diploma is handed to the entrant, so it names them: the entry's name, and a
pair's or team's members. Its QR code opens the result's public page
(``results:result_detail``) on this site, which shows whether the round's
results are official and names the entrant only with their consent.

Only a round whose results are signed off (``Round.is_official``) prints
diplomas, and only for results with a place: an entry that did not start, was
disqualified or whose finish was invalid gets none. Everything on the page is
in the championship's language. A4 or A5 portrait: the page is drawn on A4 and
scaled, so both look alike.

The text is set in the PDF's standard fonts (Times and Helvetica, which cover
the Nordic letters), so a sheet of a hundred diplomas stays small; a name with
a letter they lack (ř, ő, ...) is set in an embedded TrueType font instead.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable
from functools import cache

import reportlab
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.colors import Color, white
from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from championship import cards
from championship.models import Round
from core import site_url
from core.l10n import format_duration
from results.models import Result
from results.selectors import pieces_per_minute, round_date, standings_queryset
from results.services import standings_ensure

PAGE_SIZES = {"a4": A4, "a5": A5}
SIZES = tuple(PAGE_SIZES)
# The places a podium diploma goes to: 1 to 3, ties included.
PODIUM = 3

# Drawn on A4, in points; A5 is the same page scaled (ISO sizes share their proportions).
WIDTH, HEIGHT = A4
CENTRE = WIDTH / 2
MARGIN = 26  # from the paper's edge to the outer frame
TEXT_WIDTH = WIDTH - 2 * 80
QR_SIZE = 104  # the QR code with its quiet zone
QR_NOTE_WIDTH = 118

NAVY = Color(0.11, 0.21, 0.36)
GOLD = Color(0.72, 0.56, 0.17)
GREY = Color(0.33, 0.35, 0.38)
INK = Color(0.08, 0.08, 0.1)
MEDALS = {
    1: (Color(0.83, 0.67, 0.2), Color(0.99, 0.95, 0.8)),
    2: (Color(0.55, 0.57, 0.6), Color(0.94, 0.95, 0.96)),
    3: (Color(0.7, 0.42, 0.2), Color(0.98, 0.91, 0.85)),
}
PLAIN_MEDAL = (NAVY, Color(0.93, 0.95, 0.98))

SERIF = "Times-Roman"
SERIF_BOLD = "Times-Bold"
SERIF_ITALIC = "Times-Italic"
SANS = "Helvetica"
SANS_BOLD = "Helvetica-Bold"

# For text the standard fonts cannot set: DejaVu where the system has it, else the
# Bitstream Vera that comes with ReportLab (Latin-1 and more, always there).
_REPORTLAB_FONTS = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
_DEJAVU = "/usr/share/fonts/truetype/dejavu"
FALLBACKS = {
    "regular": (
        ("DejaVuSans", os.path.join(_DEJAVU, "DejaVuSans.ttf")),
        ("Vera", os.path.join(_REPORTLAB_FONTS, "Vera.ttf")),
    ),
    "bold": (
        ("DejaVuSans-Bold", os.path.join(_DEJAVU, "DejaVuSans-Bold.ttf")),
        ("VeraBd", os.path.join(_REPORTLAB_FONTS, "VeraBd.ttf")),
    ),
    "italic": (
        ("DejaVuSans-Oblique", os.path.join(_DEJAVU, "DejaVuSans-Oblique.ttf")),
        ("VeraIt", os.path.join(_REPORTLAB_FONTS, "VeraIt.ttf")),
    ),
}
WEIGHT = {
    SERIF: "regular",
    SANS: "regular",
    SERIF_BOLD: "bold",
    SANS_BOLD: "bold",
    SERIF_ITALIC: "italic",
}


# Which results get a diploma -------------------------------------------------------------------


def has_diploma(result: Result) -> bool:
    """Return whether ``result`` gets a diploma: its round is official and it has a place."""
    return (
        result.round.is_official
        and result.place is not None
        and result.outcome in (Result.Outcome.COMPLETED, Result.Outcome.UNFINISHED)
    )


def diploma_results(round_: Round, *, podium: bool = False) -> list[Result]:
    """Return the results of ``round_`` that get a diploma, in standing order.

    With ``podium``, only places 1 to 3 (ties included), and the official places
    1 to 3 where unofficial entrants are ahead of them: the podium the prizes go to.
    """
    standings_ensure(round_)
    results = (
        standings_queryset(round_)
        .select_related("round__category__championship")
        .filter(place__isnull=False)
    )
    if podium:
        results = results.filter(Q(place__lte=PODIUM) | Q(official_place__lte=PODIUM))
    return [result for result in results if has_diploma(result)]


def verification_url(result: Result, *, request: HttpRequest | None = None) -> str:
    """Return the absolute address of a result's public page, which a diploma's QR code opens."""
    path = reverse(
        "results:result_detail",
        kwargs={
            "championship_slug": result.round.category.championship.slug,
            "round_key": result.round.key,
            "entry_ref": result.entry.ref,
        },
    )
    return site_url.absolute_url(path, request=request)


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """Return a PDF as a download named ``filename``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Fonts and text --------------------------------------------------------------------------------


@cache
def _registered(name: str, path: str) -> bool:
    if not os.path.isfile(path):
        return False
    pdfmetrics.registerFont(TTFont(name, path))
    return True


def _covers(name: str, text: str) -> bool:
    glyphs = pdfmetrics.getFont(name).face.charToGlyph
    return all(ord(char) in glyphs for char in text)


def _font(font: str, text: str) -> str:
    """Return ``font``, or a TrueType font with the letters of ``text`` that ``font`` lacks."""
    try:
        text.encode("cp1252")  # the standard fonts' WinAnsi encoding
    except UnicodeEncodeError:
        pass
    else:
        return font
    available = [name for name, path in FALLBACKS[WEIGHT[font]] if _registered(name, path)]
    for name in available:
        if _covers(name, text):
            return name
    return available[-1] if available else font


def _width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, _font(font, text), size)


def _centred(canvas: Canvas, text: str, font: str, size: float, y: float, color=INK, x=CENTRE):
    canvas.setFillColor(color)
    canvas.setFont(_font(font, text), size)
    canvas.drawCentredString(x, y, text)


def _fitted_lines(
    text: str, font: str, size: float, min_size: float, width: float, max_lines: int
) -> tuple[list[str], float]:
    """Return ``text`` in at most ``max_lines`` lines no wider than ``width``, and its size.

    One line at the largest size from ``size`` down to ``min_size`` that fits; else
    wrapped at the largest size whose lines fit; a word longer than the line shrinks
    below ``min_size`` until it fits.
    """
    fitting = _font(font, text)
    current = size
    while current >= min_size:
        if pdfmetrics.stringWidth(text, fitting, current) <= width:
            return [text], current
        current -= 0.5
    current = size
    while True:
        lines = simpleSplit(text, fitting, current, width)
        fits = all(pdfmetrics.stringWidth(line, fitting, current) <= width for line in lines)
        if (fits and len(lines) <= max_lines) or current <= 4:
            return lines[:max_lines], current
        current -= 0.5


def _block(
    canvas: Canvas,
    text: str,
    font: str,
    y: float,
    *,
    size: float,
    min_size: float,
    max_lines: int = 2,
    width: float = TEXT_WIDTH,
    color=INK,
    leading: float = 1.18,
) -> float:
    """Draw ``text`` centred with its first baseline at ``y``; return the last baseline."""
    lines, fitted = _fitted_lines(text, font, size, min_size, width, max_lines)
    for number, line in enumerate(lines):
        _centred(canvas, line, font, fitted, y - number * fitted * leading, color)
    return y - (len(lines) - 1) * fitted * leading


# What a diploma says ---------------------------------------------------------------------------


def entrant_name(result: Result) -> str:
    """Return the name printed on the diploma: the entry's, else its members' together."""
    entry = result.entry
    members = [member.name for member in entry.members.all()]
    return entry.name or " & ".join(members)


def _members_line(result: Result, name: str) -> str:
    """Return a pair's or team's members when the name printed does not already say them."""
    members = [member.name for member in result.entry.members.all()]
    if len(members) < 2 or name in (" & ".join(members), ", ".join(members)):
        return ""
    return ", ".join(members)


def _pieces(count: int) -> str:
    return ngettext("%(pieces)s piece", "%(pieces)s pieces", count) % {"pieces": count}


def _day(value) -> str:
    return formats.date_format(value, "DATE_FORMAT")


def _result_columns(result: Result, pieces: int) -> list[tuple[str, str, str]]:
    """Return the result as (label, value, note) columns: the time and pace, or the pieces."""
    if result.outcome == Result.Outcome.COMPLETED:
        penalty = result.penalty_ms // 1000
        note = _("%(seconds)s s penalty") % {"seconds": penalty} if penalty else ""
        columns = [(_("Final time"), format_duration(result.final_ms), note and f"({note})")]
        pace = pieces_per_minute(pieces, result)
        if pace is not None:
            value = _("%(pace)s pieces/min") % {"pace": floatformat(pace, 1)}
            columns.append((_("Pace"), value, ""))
        return columns
    counted = result.counted_pieces or 0
    return [
        (
            _("Result"),
            _pieces(counted),
            _("%(counted)s of %(pieces)s pieces placed") % {"counted": counted, "pieces": pieces},
        )
    ]


def _puzzle_line(category) -> str:
    puzzle = " – ".join(part for part in (category.puzzle_brand, category.puzzle_motif) if part)
    return " · ".join(part for part in (puzzle, _pieces(category.pieces)) if part)


# Drawing ---------------------------------------------------------------------------------------


def _frame(canvas: Canvas) -> None:
    canvas.setStrokeColor(NAVY)
    canvas.setLineWidth(2.2)
    canvas.rect(MARGIN, MARGIN, WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN)
    inset = MARGIN + 7
    canvas.setStrokeColor(GOLD)
    canvas.setLineWidth(0.8)
    canvas.rect(inset, inset, WIDTH - 2 * inset, HEIGHT - 2 * inset)
    for x in (inset, WIDTH - inset):
        for y in (inset, HEIGHT - inset):
            _diamond(canvas, x, y, 5, GOLD)


def _diamond(canvas: Canvas, x: float, y: float, radius: float, color) -> None:
    path = canvas.beginPath()
    path.moveTo(x, y + radius)
    path.lineTo(x + radius, y)
    path.lineTo(x, y - radius)
    path.lineTo(x - radius, y)
    path.close()
    canvas.setFillColor(color)
    canvas.drawPath(path, stroke=0, fill=1)


def _rule(canvas: Canvas, y: float, half_width: float = 90) -> None:
    canvas.setStrokeColor(GOLD)
    canvas.setLineWidth(0.8)
    canvas.line(CENTRE - half_width, y, CENTRE - 10, y)
    canvas.line(CENTRE + 10, y, CENTRE + half_width, y)
    _diamond(canvas, CENTRE, y, 3.5, GOLD)


def _medal(canvas: Canvas, place: int, y: float, scale: float = 1) -> float:
    """Draw the place in a medallion centred at ``y``; return its bottom."""
    radius = 62 * scale
    ring, fill = MEDALS.get(place, PLAIN_MEDAL)
    canvas.setFillColor(fill)
    canvas.setStrokeColor(ring)
    canvas.setLineWidth(4 * scale)
    canvas.circle(CENTRE, y, radius, stroke=1, fill=1)
    canvas.setLineWidth(0.8)
    canvas.circle(CENTRE, y, radius - 6 * scale, stroke=1, fill=0)
    label = _("Place").upper()
    lines, size = _fitted_lines(label, SANS_BOLD, 9.5 * scale, 6, 1.5 * radius, 1)
    _centred(canvas, lines[0], SANS_BOLD, size, y + 27 * scale, GREY)
    number = str(place)
    if len(number) < 3:
        _centred(canvas, number, SERIF_BOLD, 64 * scale, y - 33 * scale, INK)
    else:
        _centred(canvas, number, SERIF_BOLD, 46 * scale, y - 24 * scale, INK)
    return y - radius


def _columns(canvas: Canvas, columns: list[tuple[str, str, str]], y: float) -> float:
    """Draw the result's columns side by side, centred; return the lowest baseline."""
    gap = 200 if len(columns) > 1 else 0
    start = CENTRE - gap * (len(columns) - 1) / 2
    lowest = y
    for index, (label, value, note) in enumerate(columns):
        x = start + index * gap
        width = 190
        lines, size = _fitted_lines(label.upper(), SANS_BOLD, 9.5, 7, width, 1)
        _centred(canvas, lines[0], SANS_BOLD, size, y, GREY, x=x)
        lines, size = _fitted_lines(value, SANS_BOLD, 22, 12, width, 1)
        _centred(canvas, lines[0], SANS_BOLD, size, y - 27, NAVY, x=x)
        bottom = y - 27
        if note:
            lines, size = _fitted_lines(note, SANS, 10.5, 7, width, 1)
            _centred(canvas, lines[0], SANS, size, y - 44, GREY, x=x)
            bottom = y - 44
        lowest = min(lowest, bottom)
    return lowest


def _qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``url`` (its quiet zone included) with its lower left at ``x``, ``y``."""
    matrix = cards.qr_code(url).get_matrix()
    module = size / len(matrix)
    canvas.setFillColor(white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(INK)
    for row, cells in enumerate(matrix):
        top = y + size - (row + 1) * module
        column = 0
        while column < len(cells):
            if not cells[column]:
                column += 1
                continue
            run = column
            while run < len(cells) and cells[run]:
                run += 1
            # A hair wider than the modules, so no seam shows between neighbours.
            canvas.rect(
                x + column * module, top, (run - column) * module + 0.05, module + 0.05, 0, 1
            )
            column = run


# How far the body's spaces shrink, in steps, until it clears the QR code at the foot.
SQUEEZES = tuple(step / 20 for step in range(20, 7, -1))  # 1 to 0.4
INNER = MARGIN + 7
QR_X = WIDTH - INNER - 14 - QR_SIZE
QR_Y = INNER + 34
BODY_BOTTOM = QR_Y + QR_SIZE + 12


def _body(canvas: Canvas, result: Result, day, squeeze: float = 1) -> float:
    """Draw the diploma's text and medallion, its spaces times ``squeeze``; return its lowest y."""
    round_ = result.round
    category = round_.category
    championship = category.championship

    def gap(points: float) -> float:
        return points * squeeze

    y = HEIGHT - 100 + (1 - squeeze) * 40
    y = _block(canvas, championship.name, SERIF_BOLD, y, size=25, min_size=15, color=NAVY)
    when_where = " · ".join(part for part in (_day(day), championship.venue) if part)
    y = _block(canvas, when_where, SANS, y - 22, size=11, min_size=8, max_lines=1, color=GREY)

    # Translators: the heading of a printed diploma.
    title = _("Diploma").upper()
    y -= gap(60) + 18
    _centred(canvas, title, SERIF, 46, y, GOLD)
    y -= 14 + gap(8)
    _rule(canvas, y)
    y = _block(
        canvas,
        f"{category.display_name} · {round_.display_name}",
        SANS,
        y - 16 - gap(12),
        size=14,
        min_size=9,
        max_lines=1,
        color=NAVY,
    )

    name = entrant_name(result)
    y = _block(canvas, name, SERIF_BOLD, y - gap(72), size=36, min_size=20, color=INK)
    members = _members_line(result, name)
    if members:
        y = _block(canvas, members, SANS, y - 22, size=12, min_size=8, color=GREY)

    medal = max(squeeze, 0.75)
    y = _medal(canvas, result.place, y - gap(48) - 62 * medal, medal)
    if not result.official:
        y -= 24
        _centred(canvas, _("Takes part unofficially (hors concours)"), SANS, 12, y, GREY)
    elif result.official_place and result.official_place != result.place:
        y -= 24
        line = f"{_('Official place')}: {result.official_place}"
        _centred(canvas, line, SANS_BOLD, 13, y, NAVY)

    y = _columns(canvas, _result_columns(result, category.pieces), y - 14 - gap(40))

    y -= 20 + gap(32)
    _centred(canvas, _("Puzzle").upper(), SANS_BOLD, 9.5, y, GREY)
    y = _block(canvas, _puzzle_line(category), SERIF_ITALIC, y - 18, size=14, min_size=9, color=INK)
    return y - 4


def _footer(canvas: Canvas, result: Result, url: str) -> None:
    """Draw the verification: the QR code in the corner, the state and address beside it."""
    round_ = result.round
    championship = round_.category.championship
    _qr(canvas, url, QR_X, QR_Y, QR_SIZE)
    note = _("Scan to verify the official result")
    lines, size = _fitted_lines(note, SANS, 7.5, 6, QR_NOTE_WIDTH, 2)
    note_x = QR_X + QR_SIZE / 2
    for number, line in enumerate(lines):
        _centred(canvas, line, SANS, size, QR_Y - 2 - size - number * size * 1.2, GREY, x=note_x)

    left = INNER + 22
    canvas.setFillColor(NAVY)
    signed = _("Official results")
    if round_.official_at:
        local = timezone.localtime(round_.official_at, championship.tzinfo)
        signed = f"{signed} · {_day(local)}"
    canvas.setFont(_font(SANS_BOLD, signed), 9)
    canvas.drawString(left, QR_Y + 22, signed)
    canvas.setFillColor(GREY)
    address_font = _font(SANS, url)
    size = 7
    while size > 4 and pdfmetrics.stringWidth(url, address_font, size) > QR_X - left - 16:
        size -= 0.25
    canvas.setFont(address_font, size)
    canvas.drawString(left, QR_Y + 10, url)


def _page(canvas: Canvas, result: Result, url: str, day) -> None:
    _frame(canvas)
    # A long name, a team's members or a long motif take room: the spaces give it up.
    for squeeze in SQUEEZES:
        if _body(Canvas(io.BytesIO()), result, day, squeeze) >= BODY_BOTTOM:
            break
    _body(canvas, result, day, squeeze)
    _footer(canvas, result, url)


def diplomas_pdf(
    results: Iterable[Result], *, size: str = "a4", url_for: Callable[[Result], str]
) -> bytes:
    """Return a PDF with a diploma for each of ``results`` that gets one, in the order given.

    ``size`` is "a4" or "a5" (anything else: A4); ``url_for(result)`` gives the
    absolute address of the result's public page, which the QR code opens.
    Raise ``ValueError`` when none of ``results`` gets a diploma.
    """
    placed = [result for result in results if has_diploma(result)]
    if not placed:
        raise ValueError("None of these results gets a diploma.")
    pagesize = PAGE_SIZES.get(size, A4)
    scale = pagesize[0] / WIDTH
    championship = placed[0].round.category.championship
    buffer = io.BytesIO()
    with translation.override(championship.language):
        canvas = Canvas(buffer, pagesize=pagesize, lang=championship.language)
        canvas.setTitle(f"{championship.name} – {_('Diploma')}")
        canvas.setAuthor(championship.name)
        canvas.setCreator(championship.name)
        days: dict[int, object] = {}
        for result in placed:
            with translation.override(result.round.category.championship.language):
                if result.round_id not in days:
                    days[result.round_id] = round_date(result.round)
                canvas.saveState()
                canvas.scale(scale, scale)
                _page(canvas, result, url_for(result), days[result.round_id])
                canvas.restoreState()
                canvas.showPage()
        canvas.save()
    return buffer.getvalue()
