"""Screenshots of the registration and printed screens, to look at (``SCREENSHOTS=/tmp/shots``)."""

import os

SCREENSHOTS = os.environ.get("SCREENSHOTS")
AREA = "registration"


def shot(page, name: str) -> None:
    """Save a full-page screenshot under ``$SCREENSHOTS/registration/`` when the variable is set."""
    if SCREENSHOTS:
        folder = os.path.join(SCREENSHOTS, AREA)
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)
