"""Screenshots of the registration and printed screens, to look at (``SCREENSHOTS=/tmp/shots``)."""

import os

SCREENSHOTS = os.environ.get("SCREENSHOTS")
AREA = "registration"


def shot(page, name: str, *, area: str = AREA) -> None:
    """Save a full-page screenshot under ``$SCREENSHOTS/<area>/`` when the variable is set."""
    if SCREENSHOTS:
        folder = os.path.join(SCREENSHOTS, area)
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)
