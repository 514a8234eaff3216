"""The championship day in the order people live it, in a real browser, one screen after another.

An sm championship (preliminary round, then a final): an organiser, who is no
superuser, creates it from the home page and adds the judges, who sign in with
their badges' links; an entrant registers on a phone; the organiser checks
entrants in, adds tables, seats the round and prints the cards, whose QR code a
judge's phone scans; the heat starts and the projector shows it; a judge
records two finishes (one while the network is down) and, after the organiser
calls time, a piece count by two judges; the head judge corrects a result and marks a no-show
on the dashboard; the qualified advance to the final, and a spectator reads the
results on a phone.

With ``DOCS_SCREENSHOTS`` set to a folder (``docs/img``), each step's screen is
saved there for docs/organisers.md, which walks the same day.
"""

import io
import os
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from championship import services
from championship.models import Championship, ChampionshipRole, Heat, Round, Table
from judging.models import Capture
from registration.models import Entry
from results.models import Result
from tests import factories
from tests.control.test_cards import decode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
DOCS = os.environ.get("DOCS_SCREENSHOTS")
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}


def shot(page, name, *, full_page=True):
    if DOCS:
        os.makedirs(DOCS, exist_ok=True)
        page.screenshot(path=os.path.join(DOCS, f"day-{name}.png"), full_page=full_page)


@pytest.fixture
def kari(db):
    """An organiser's account as ``create_organiser`` makes it: no superuser, no championship."""
    user, _password = services.organiser_account_set(username="kari", password=PASSWORD)
    return user


def three_checked_in(championship):
    """Three entrants of the individual category, registered and checked in before the day."""
    individual = championship.categories.get(kind="individual")
    for name, citizenship in (("Stina Ek", "SE"), ("Bo Lind", "SE"), ("Mette Holm", "DK")):
        person = factories.person(
            championship, name=name, citizenship=[citizenship], publish_consent=True
        )
        factories.entry(
            individual,
            members=[person],
            checked_in_at=timezone.now(),
            publish_consent=True,
        )


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def log_in(page, live_server, username, url):
    """Log ``username`` in (after logging whoever it was out) and open ``url``."""
    page.goto("about:blank")
    page.context.clear_cookies()
    english(page, live_server)
    path = url.removeprefix(live_server.url)
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit].primary").click()
    page.wait_for_url(url)


def sign_in_with_link(page, live_server, link, url):
    """Open a staff member's sign-in link on a device nobody is signed in on, then ``url``."""
    page.goto("about:blank")  # the page before stops polling with the cookies about to go
    page.context.clear_cookies()
    english(page, live_server)
    page.goto(link)
    with page.expect_navigation():  # opening it signs no one in: the button does
        page.locator(".sign-in-link form button[type=submit]").click()
    assert "/s/" not in page.url and "/accounts/login/" not in page.url, (
        page.url,
        page.locator("main").inner_text(),
    )
    page.goto(url)


def submit(page, action_suffix):
    """Press the button of the form whose action ends with ``action_suffix``."""
    page.locator(f"form[action$='{action_suffix}'] button[type=submit]").first.click()


@pytest.mark.long
def test_the_day_from_registration_to_the_final(page, live_server, kari, settings):
    settings.SITE_URL = ""  # the cards carry the address they are opened at
    page.on("dialog", lambda dialog: dialog.accept())
    base = live_server.url
    slug = "sm-day"
    start = timezone.localtime(timezone.now() + timedelta(days=30), ZoneInfo("Europe/Stockholm"))

    # 1. The organiser creates the championship from the home page.
    page.set_viewport_size(LAPTOP)
    log_in(page, live_server, "kari", f"{base}/")
    shot(page, "01-home")
    page.get_by_role("link", name="New championship").click()
    page.get_by_label("Pussel-SM (sm)").check()
    expect(page.locator("#setup-team")).to_be_visible()  # the preset fills in the rest
    page.fill("#id_name", "Pussel-SM")
    page.fill("input[name=slug]", slug)
    page.fill("input[name=starts_at]", f"{start:%Y-%m-%d}T10:00")
    page.get_by_label("Venue").fill("Folkets hus, Linköping")
    expect(page.locator("#id_timezone")).to_have_value("Europe/Stockholm")
    shot(page, "02-new")
    page.get_by_role("button", name="Create the championship").click()
    expect(page.get_by_role("heading", name="Control room")).to_be_visible()
    # A draft: its checklist says what it has and lacks; SM charges no fee, so it opens.
    checklist = page.locator(".draft-checklist")
    expect(checklist.locator("[data-item=payment_instructions]")).to_contain_text("No fee")
    expect(checklist.locator("[data-item=tables]")).to_have_class(re.compile("later"))
    shot(page, "03-control-room-draft")
    page.get_by_role("button", name="Open registration").click()
    expect(page.locator(".message.success")).to_contain_text("Registration is open")
    expect(checklist).to_have_count(0)
    shot(page, "03-control-room")
    day = Championship.objects.get(slug=slug)
    assert not day.draft
    assert day.roles.filter(user=kari, role=ChampionshipRole.Role.ORGANISER).exists()
    assert timezone.localtime(day.starts_at, ZoneInfo("Europe/Stockholm")).hour == 10
    prelim = day.rounds.get(key="individual-prelim")
    control = f"{base}/{slug}/manage/rounds/{prelim.key}/"
    three_checked_in(day)

    # The judges: added by name, each with a sign-in link (on a badge) instead of a password.
    page.get_by_role("link", name="Staff and sign-in links").click()
    links = {}
    for name, role in (("Judy", "judge"), ("Hanna", "head_judge")):
        page.get_by_label("Name").fill(name)
        page.get_by_label("Role").select_option(role)
        page.get_by_role("button", name="Add and make a sign-in link").click()
        row = page.locator("tr.staff-row", has_text=name)
        expect(row).to_contain_text("Active")
        links[name] = row.locator("input[readonly]").input_value()
    shot(page, "04-staff")
    page.locator("tr.staff-row", has_text="Judy").get_by_role("link", name="Badge").click()
    expect(page.locator(".staff-badge-name")).to_have_text("Judy")
    shot(page, "05-badge")

    # 2. An entrant registers on a phone.
    phone = page.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(f"{base}/{slug}/register/individual/")
    phone.fill("#id_members-0-name", "Anna Andersson")
    phone.fill("#id_members-0-email", "anna@example.se")
    phone.fill("#id_members-0-birth_date", "1985-04-04")
    phone.select_option("#id_members-0-citizenship", "SE")
    consent = phone.locator("input[type=checkbox][name$='publish_consent']").first
    consent.check()
    expect(phone.locator("#officiality")).to_contain_text("The entry will be official.")
    shot(phone, "06-register")
    phone.get_by_role("button", name="Register").click()
    phone.wait_for_url(f"{base}/{slug}/entries/**")
    expect(phone.get_by_text("Your entry is confirmed")).to_be_visible()
    shot(phone, "07-confirmed")
    anna = Entry.objects.get(name="Anna Andersson")

    # 3. The organiser sees the entries and checks Anna in at the door (on a phone).
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base}/{slug}/manage/entries/")
    expect(page.locator("main")).to_contain_text("Anna Andersson")
    shot(page, "08-entries")
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/{slug}/manage/checkin/?q=Anna")
    page.locator(f"form[action$='/checkin/{anna.pk}/'] button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("Undo")
    anna.refresh_from_db()
    assert anna.checked_in_at is not None
    shot(page, "09-checkin")

    # 4. Tables, advancement and seating.
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base}/{slug}/manage/tables/")
    page.locator("form.tables-add input[type=number]").first.fill("6")
    page.locator("form.tables-add button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("6 tables added")
    assert Table.objects.filter(championship=day).count() == 6
    shot(page, "10-tables")
    page.goto(control)
    page.select_option("form.advance-form select[name=advance]", "overall")
    page.fill("form.advance-form input[name=advance_count]", "2")
    page.locator("form.advance-form button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("The best 2 overall advance.")
    page.locator("#seat-form button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("Anna Andersson")
    submit(page, "/publish/")
    expect(page.locator("form[action$='/publish/']")).to_have_count(0)
    shot(page, "11-seated")

    # 5. The table cards, and what a judge's phone reads in a card's QR code.
    page.goto(f"{base}/{slug}/manage/cards/{prelim.key}/")
    card = page.locator(".table-card").first
    expect(card).to_contain_text("1")
    shot(page, "12-cards")
    png = card.locator(".table-card-qr svg").screenshot()
    scanned = decode(np.ascontiguousarray(np.array(Image.open(io.BytesIO(png)).convert("L"))))
    table_one = Table.objects.get(championship=day, number=1)
    assert scanned == f"{base}/t/{table_one.token}/"

    # 6. The projector, opened before the start, and the start.
    projector = page.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"{base}/{slug}/screen/{prelim.key}/")
    shot(projector, "13-screen-before", full_page=False)
    page.goto(control)
    submit(page, "/start/")
    # The championship is a month away: starting now asks first (diplomas carry the date).
    expect(page.locator(".start-early")).to_contain_text("Before the championship’s date")
    page.get_by_role("button", name="Start anyway").click()
    expect(page.locator("main")).to_contain_text("Running")
    prelim.refresh_from_db()
    assert prelim.state == Round.State.RUNNING
    # Forty-two minutes pass (the clock is the heat's start: moved back, not waited for).
    Heat.objects.filter(round=prelim).update(started_at=F("started_at") - timedelta(minutes=42))

    # 7. The judge scans table 1 and records the finish of who sits there. (One browser
    # plays every part: each logs in in turn.)
    sign_in_with_link(phone, live_server, links["Judy"], scanned)
    expect(phone.locator("h1.table-number")).to_contain_text("Table 1")
    phone.get_by_role("button", name="TIME", exact=True).first.click()
    expect(phone.locator("[data-save-state]").first).to_have_text("saved")
    phone.fill('[data-field="lost"]', "1")
    shot(phone, "14-judge-time")
    phone.get_by_role("button", name="Show the entrant").first.click()
    expect(phone.locator("[data-review-source]").first).to_have_text("as saved")
    shot(phone, "15-judge-review")
    phone.get_by_role("button", name="Confirmed by the entrant").first.click()
    expect(phone.locator(".confirmed-badge").first).to_contain_text("Confirmed")

    # Table 2, with the venue's network down: kept on the phone, sent when it returns.
    table_two = Table.objects.get(championship=day, number=2)
    phone.goto(f"{base}/t/{table_two.token}/")
    try:
        phone.context.set_offline(True)
        phone.get_by_role("button", name="TIME", exact=True).first.click()
        expect(phone.locator("[data-queue-state]")).to_contain_text("1 capture waiting")
        shot(phone, "16-judge-offline")
    finally:
        phone.context.set_offline(False)
    expect(phone.locator("[data-save-state]").first).to_have_text("saved", timeout=20_000)
    assert Capture.objects.filter(kind="finish").count() == 3  # the tap, its missing piece, table 2

    # A poll or two.
    expect(projector.locator("body")).to_contain_text("2 of 4 finished", timeout=15_000)
    shot(projector, "17-screen-running", full_page=False)

    # 8. The organiser calls time; at table 3 the judge counts the pieces.
    log_in(page, live_server, "kari", control)
    submit(page, "/close/")
    expect(page.locator("main")).to_contain_text("Time is up")
    sign_in_with_link(phone, live_server, links["Judy"], f"{base}/")
    table_three = Table.objects.get(championship=day, number=3)
    phone.goto(f"{base}/t/{table_three.token}/")
    expect(phone.get_by_text("Count the pieces").first).to_be_visible()
    phone.fill('[data-field="remaining"]', "20")
    phone.locator('[data-step-panel="timeup"]').get_by_role(
        "button", name="Show the entrant"
    ).click()
    # sm: two judges count. The first count waits, unseen, for a second judge's.
    expect(phone.locator("[data-own-count]").first).to_have_text("480")
    expect(phone.locator('[data-step-panel="counted"]').first).to_contain_text(
        "Waiting for a second judge's count"
    )
    shot(phone, "18-judge-count")
    sign_in_with_link(phone, live_server, links["Hanna"], f"{base}/")
    phone.goto(f"{base}/t/{table_three.token}/")
    expect(phone.locator("[data-count-label]").first).to_have_text("Second count")
    phone.locator('[data-step-panel="timeup"]').get_by_label("Pieces placed", exact=True).check()
    phone.fill('[data-field="placed"]', "480")
    phone.locator('[data-step-panel="timeup"]').get_by_role(
        "button", name="Show the entrant"
    ).click()
    expect(phone.locator("[data-review-value]").first).to_have_text("480")
    phone.get_by_role("button", name="Confirmed by the entrant").first.click()
    expect(phone.locator(".confirmed-badge").first).to_contain_text("Confirmed")
    shot(phone, "18b-second-count")

    # 9. The head judge corrects table 2's time and marks table 4 as not started.
    sign_in_with_link(
        page, live_server, links["Hanna"], f"{base}/{slug}/manage/rounds/{prelim.key}/dashboard/"
    )
    two = Result.objects.get(round=prelim, entry__seats__table=table_two)
    page.locator("details.row-correct summary").filter(has_text=two.entry.name).click()
    page.fill(f"#correct-{two.entry_id}-time", "0:41:50")
    page.fill(
        f"#correct-{two.entry_id}-reason",
        "The judge tapped late: the video shows 0:41:50.",
    )
    form = page.locator(f"form:has(#correct-{two.entry_id}-time)")
    shot(page, "19-dashboard-correct")
    # What is sent is what was typed: the refresh keeps an open correction as it is.
    expect(
        page.locator(f"details.row-correct:has(#correct-{two.entry_id}-time)")
    ).to_have_attribute("open", "")
    expect(page.locator(f"#correct-{two.entry_id}-time")).to_have_value("0:41:50")
    # The form posts and the dashboard comes back with the notice: wait for it, however busy
    # the machine (a click that fails says so here, not as a navigation that never came).
    form.locator("button[type=submit]").click()
    expect(page.locator("main")).to_contain_text(
        f"The correction of {two.entry.name} is recorded.", timeout=30_000
    )
    two.refresh_from_db()
    assert two.time_ms == (41 * 60 + 50) * 1000
    four = (
        Entry.objects.filter(seats__round=prelim)
        .exclude(results__status__in=["finished", "unfinished"])
        .get()
    )
    page.select_option("form[action$='/mark/'] select[name=entry]", str(four.pk))
    page.select_option("form[action$='/mark/'] select[name=kind]", "dns")
    page.fill("form[action$='/mark/'] [name=reason]", "Not at the table.")
    submit(page, "/mark/")
    expect(page.locator("main")).to_contain_text(four.name)

    # 10. The organiser signs the results off, and advances the qualified to the final.
    log_in(page, live_server, "kari", control)
    expect(page.locator("[data-results-state=provisional]")).to_be_visible()
    submit(page, "/sign-off/")
    expect(page.locator("main")).to_contain_text("The results are official since")
    expect(page.locator("[data-results-state=official]")).to_be_visible()
    shot(page, "20a-signed-off")
    submit(page, "/advance/")
    expect(page.locator("main")).to_contain_text("The qualified are seated in")
    final = day.rounds.get(key="individual-final")
    assert final.seats.count() == 2
    qualified = sorted(final.seats.values_list("entry__name", flat=True))
    assert qualified == ["Bo Lind", "Stina Ek"]  # Anna did not finish; Mette did not start
    page.goto(f"{base}/{slug}/manage/rounds/{final.key}/")
    expect(page.locator("main")).to_contain_text("Bo Lind")
    shot(page, "20-final-seated")

    # 11. A spectator reads the preliminary round's results on a phone.
    spectator = page.context.new_page()
    spectator.set_viewport_size(PHONE)
    spectator.goto(f"{base}/{slug}/results/{prelim.key}/")
    expect(spectator.locator("main")).to_contain_text("Anna Andersson")
    shot(spectator, "21-results-phone")
