"""The pages of the organiser's lists: which page a request asks for, and the links to the others.

A list's query string holds its filters and its page (``?page=``, left out for
the first); each link keeps the filters.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page
from django.http import QueryDict

# Pages beyond this are not asked for (a million entries, at 50 a page): the number
# stays a small integer whatever is typed into the address bar.
MAX_DIGITS = 6


def page_number(params: QueryDict) -> int:
    """Return the page ``params`` ask for (``page``): a whole number from 1, else 1."""
    value = params.get("page", "")
    if value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        return max(int(value), 1)
    return 1


def with_page(query: str, number: int) -> str:
    """Return the query string ``query`` (the filters) with page ``number``."""
    if number <= 1:
        return query
    page = urlencode({"page": number})
    return f"{query}&{page}" if query else page


@dataclass(frozen=True)
class PageLinks:
    """The links from one page of a list to the first, previous, next and last pages."""

    page: Page
    first: str | None
    previous: str | None
    next: str | None
    last: str | None


def page_links(page: Page, path: str, query: str) -> PageLinks:
    """Return the links of ``page`` of the list at ``path`` with the filters ``query``."""

    def url(number: int) -> str:
        found = with_page(query, number)
        return f"{path}?{found}" if found else path

    last = page.paginator.num_pages
    return PageLinks(
        page=page,
        first=url(1) if page.number > 1 else None,
        previous=url(page.previous_page_number()) if page.has_previous() else None,
        next=url(page.next_page_number()) if page.has_next() else None,
        last=url(last) if page.number < last else None,
    )
