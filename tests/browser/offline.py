"""What the judge's phone keeps for when the venue's network is down."""

import time

HAS_COPY = "async (url) => Boolean(await caches.match(url))"


def wait_for_kept_copy(page, url: str, *, kept: bool = True, timeout_s: float = 15) -> None:
    """Wait until the service worker has kept a copy of ``url`` (or, ``kept=False``, has none).

    The worker keeps and drops copies in the background, so this polls. (Playwright's
    ``wait_for_function`` takes the promise an async function returns for a truthy answer.)
    """
    deadline = time.monotonic() + timeout_s
    while page.evaluate(HAS_COPY, url) is not kept:
        if time.monotonic() > deadline:
            state = "kept" if kept else "dropped"
            raise AssertionError(f"{url} was not {state} within {timeout_s} s")
        page.wait_for_timeout(100)
