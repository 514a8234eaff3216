"""The judge's page's modules in Chromium: following the table's state, the page itself under
its Content-Security-Policy, and the modules as production serves them."""

import json
import os
import re
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from harness.servers import manage
from judging.models import Capture
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.judge_modules import ORIGIN, run, serve_from
from tests.deployment.harness import server_env

pytestmark = pytest.mark.browser
MODULES = ("main", "queue", "merge", "render", "text")
PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


# Following the table's state ----------------------------------------------------------------

FOLLOWER = """
const follower = (entries, answers = [], options = {}) => {
  const page = fakes.config(entries);
  const seats = M.startingSeats(page, page, "Table 1");
  const net = fakes.server(answers);
  const clock = fakes.timers();
  const kept = fakes.storage();
  const told = { heat: [], replaced: [], followed: 0 };
  let queued = [];
  const f = M.createFollower({
    url: page.stateUrl, fetch: net.fetch, storage: kept,
    setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout,
    known: page, seats, loadQueue: () => queued,
    isVisible: () => true, isTyping: () => false,
    onHeatChange: (state) => told.heat.push(state.layout),
    onReplaced: (seat) => told.replaced.push(seat.entry),
    onFollowed: () => { told.followed += 1; },
    ...options,
  });
  return { f, seats, net, clock, kept, told, page, queue: (items) => { queued = items; },
           tags: () => net.requests.map((r) => r.options.headers["If-None-Match"]) };
};
"""


def follow(page, script: str, arg=None):
    return run(page, FOLLOWER + script, arg)


def test_the_phone_asks_with_the_version_it_has_and_takes_a_new_state_in(modules_page):
    seen = follow(
        modules_page,
        """
        const page = fakes.config([fakes.entry()]);
        const review = { ...page, version: "v2", atMs: page.atMs + 5000,
                         seats: [fakes.entry({ step: "review", result: fakes.finished() })] };
        const u = follower([fakes.entry()], [[304, undefined], [200, review], [304, undefined]]);
        await u.f.poll();
        const unchanged = { step: u.seats[0].step, followed: u.told.followed,
                            delays: u.clock.delays() };
        await u.f.poll();
        const kept = JSON.parse(u.kept.getItem(M.knownKey(u.page.stateUrl)));
        const changed = { step: u.seats[0].step, followed: u.told.followed,
                          replaced: u.told.replaced, kept: kept.version };
        await u.f.poll();
        return { unchanged, changed, tags: u.tags(), urls: u.net.requests.map((r) => r.url),
                 version: u.f.version };
        """,
    )
    assert seen["unchanged"] == {"step": "puzzling", "followed": 0, "delays": [4000]}
    assert seen["changed"] == {
        "step": "review",
        "followed": 1,
        "replaced": ["e1"],
        "kept": "v2",  # for a page kept by the service worker
    }
    assert seen["tags"] == ['"v1"', '"v1"', '"v2"']
    assert seen["urls"] == ["/t/token/state/"] * 3
    assert seen["version"] == "v2"


def test_the_phone_asks_less_often_while_the_network_is_down_and_not_while_hidden(
    modules_page,
):
    seen = follow(
        modules_page,
        """
        let visible = true;
        const answers = ["down", "down", "down", "down", "down", [304, undefined]];
        const t = follower([fakes.entry()], answers, { isVisible: () => visible });
        const delays = [];
        for (let i = 0; i < 6; i += 1) {
          await t.f.poll();
          delays.push(t.f.delay);
        }
        visible = false;
        await t.f.poll();
        const asked = t.net.requests.length;
        return { delays, asked };
        """,
    )
    assert seen["delays"] == [8000, 16000, 32000, 60000, 60000, 4000]
    assert seen["asked"] == 6, "a hidden page does not ask"


def test_a_tap_made_while_the_question_was_on_its_way_is_not_undone(modules_page):
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()], ["wait"]);
        const asking = t.f.poll();
        await fakes.settle();
        // The judge taps TIME; the server stores it before the state's answer comes.
        const seat = t.seats[0];
        seat.step = "timed";
        seat.own = true;
        seat.changed = t.f.changed();
        t.f.refreshSoon();
        t.net.release([200, { ...t.page, version: "v2", seats: [fakes.entry()] }]);
        await asking;
        return { step: seat.step, replaced: t.told.replaced, followed: t.told.followed,
                 delays: t.clock.delays() };
        """,
    )
    assert seen["step"] == "timed"
    assert seen["replaced"] == []
    assert seen["followed"] == 1
    assert seen["delays"] == [0], "asked again at once for the state after the tap"


def test_a_refused_tap_puts_the_entry_back_from_the_state_it_already_has(modules_page):
    """Unchanged (304) since the last answer: the entry goes back to that answer."""
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()], [[304, undefined]]);
        const seat = t.seats[0];
        seat.step = "timed";
        seat.own = true;
        M.applyRefusal(seat, { kind: "finish" }, "The heat has not started.");
        seat.changed = t.f.changed();
        t.f.force(seat);
        await t.f.poll();
        const first = { step: seat.step, replaced: t.told.replaced.slice() };
        seat.step = "timed"; // no longer forced: a 304 changes nothing
        await t.f.poll();
        return { first, step: seat.step, asked: t.net.requests.length };
        """,
    )
    assert seen["first"] == {"step": "puzzling", "replaced": ["e1"]}
    assert seen["step"] == "timed"
    assert seen["asked"] == 2


def test_an_answer_held_back_while_the_judge_types_is_taken_in_afterwards(modules_page):
    seen = follow(
        modules_page,
        """
        let typing = true;
        const confirmed = fakes.entry({
          step: "confirmed", result: fakes.finished({ confirmed: true }),
        });
        const state = { ...fakes.config([confirmed]), version: "v2" };
        const t = follower([fakes.entry()], [[200, state]], { isTyping: () => typing });
        t.f.force(t.seats[0]);
        await t.f.poll();
        const held = { step: t.seats[0].step, deferred: t.f.deferred };
        t.f.resume(); // the field is left, but the judge is still typing in another one
        typing = false;
        t.f.resume();
        return { held, step: t.seats[0].step, deferred: t.f.deferred, replaced: t.told.replaced };
        """,
    )
    assert seen["held"] == {"step": "puzzling", "deferred": True}
    assert seen["step"] == "confirmed"
    assert seen["deferred"] is False
    assert seen["replaced"] == ["e1"]


def test_other_entrants_at_the_table_are_told_and_waiting_taps_are_kept(modules_page):
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()]);
        const seat = t.seats[0];
        seat.step = "timed";
        const body = fakes.capture("f1");
        t.queue([{ id: "f1", round: "final", entry: "e1", kind: "finish", body }]);
        const entries = [
          fakes.entry({ step: "review" }),
          fakes.entry({ entry: "e7", name: "Per" }),
        ];
        const next = { ...t.page, version: "v3", layout: "l2", seats: entries };
        t.f.follow(next, 0);
        return { heat: t.told.heat, step: seat.step, seats: t.seats.length };
        """,
    )
    assert seen == {"heat": ["l2"], "step": "timed", "seats": 1}


# The page itself -----------------------------------------------------------------------------


@pytest.fixture
def table(db):
    championship = factories.championship(slug="rm-modules", name="RM modules")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    return table


CSP_WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.mark.django_db(transaction=True)
def test_the_judges_page_runs_its_modules_under_the_csp(phone, live_server, table):
    problems = []
    phone.on("pageerror", lambda error: problems.append(f"error: {error}"))
    phone.on(
        "console",
        lambda message: (
            problems.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    phone.add_init_script(CSP_WATCH)
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    path = table.get_absolute_url()
    log_in(phone, live_server, "judy", f"{live_server.url}{path}", language=None)
    response = phone.reload()
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response.headers["content-security-policy"].split(";")
    )
    assert policy["script-src"] == "'self'"

    scripts = phone.eval_on_selector_all(
        "script[src]", "nodes => nodes.map((n) => [n.getAttribute('type'), n.src])"
    )
    assert ["module", f"{live_server.url}/static/judging/judge/main.js"] in scripts
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the clock is measured
    loaded = phone.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
    )
    for name in MODULES:
        assert f"/static/judging/judge/{name}.js" in loaded

    phone.get_by_role("button", name="TIME", exact=True).click()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    assert Capture.objects.get().kind == "finish"
    folder = os.environ.get("JUDGING_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        phone.screenshot(path=os.path.join(folder, "modules-after-time.png"), full_page=True)
    assert phone.evaluate("window.__violations") == []
    assert problems == []


# The modules as production serves them --------------------------------------------------------


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """The static files collected as in production (DEBUG off, the manifest storage)."""
    root = tmp_path_factory.mktemp("collected")
    manage(server_env("sqlite:///:memory:", "", root), "collectstatic", "--noinput")
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return root, manifest


def test_the_collected_modules_load_each_other(chromium, collected):
    root, manifest = collected
    main = manifest["judging/judge/main.js"]
    assert main != "judging/judge/main.js", "production serves a hashed main.js"
    seen = []
    page = chromium.new_page()
    try:
        page.route(f"{ORIGIN}/**", serve_from(root, seen))
        page.goto(f"{ORIGIN}/")
        addresses = page.evaluate("async (url) => (await import(url)).MODULES", f"/static/{main}")
    finally:
        page.close()
    assert seen, "the collected main.js was loaded"
    assert all(status == 200 for _, status in seen), seen
    assert seen[0] == (main, 200)
    # What main.js loaded is what the service worker is asked to keep.
    loaded = {name for name, _ in seen}
    assert {urlparse(address).path.removeprefix("/static/") for address in addresses} == loaded


IMPORT_FROM = re.compile(
    r"""^(?:import|export)\b[^;]*?\bfrom\s*["'](\./[^"']+)["'];""", re.M | re.S
)


def test_the_collected_modules_load_each_other_by_their_hashed_names(collected):
    root, manifest = collected
    imports = {}
    for name in MODULES:
        hashed = manifest[f"judging/judge/{name}.js"]
        text = (root / hashed).read_text()
        imports[name] = [f"judging/judge/{spec[2:]}" for spec in IMPORT_FROM.findall(text)]
    assert imports["main"], "main.js loads the other modules"
    hashed_names = {manifest[f"judging/judge/{name}.js"] for name in MODULES}
    unhashed = {
        name: [i for i in found if i not in hashed_names] for name, found in imports.items()
    }
    assert unhashed == {name: [] for name in MODULES}
