"""The judge's page's queue module in Chromium: captures kept, sent, retried, in order."""

import pytest

from tests.browser.judge_modules import FAKES, run

pytestmark = pytest.mark.browser


# The queue ---------------------------------------------------------------------------------


def test_a_capture_is_kept_in_storage_before_it_is_sent(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["wait"] });
        const item = t.queue.add(fakes.capture("c1"), "Table 1 · Ingrid Hansen");
        const storedBeforeSending = t.stored();
        const sending = t.queue.flush();
        await fakes.settle();
        const storedWhileSending = t.stored();
        t.server.release([201, { result: null }]);
        await sending;
        return { item, storedBeforeSending, storedWhileSending, storedAfter: t.stored() };
        """,
    )
    assert seen["item"] == {
        "id": "c1",
        "round": "final",
        "entry": "e1",
        "kind": "finish",
        "where": "Table 1 · Ingrid Hansen",
        "queuedAt": 1746093900000,
        "body": {
            "id": "c1",
            "round": "final",
            "entry": "e1",
            "kind": "finish",
            "at": "2025-05-01T10:05:00.000Z",
        },
    }
    assert seen["storedBeforeSending"] == ["c1"]
    assert seen["storedWhileSending"] == ["c1"], "a capture leaves only once it is answered"
    assert seen["storedAfter"] == []


def test_the_queue_comes_back_after_a_reload_and_is_sent_in_order(modules_page):
    run(
        modules_page,
        """
        localStorage.removeItem(fakes.QUEUE_KEY);
        const t = fakes.queue(Q, { storage: localStorage, answers: ["down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2", { kind: "confirm" }), "Table 1");
        await t.queue.flush();
        return null;
        """,
    )
    modules_page.reload()
    modules_page.add_script_tag(content=FAKES)
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { storage: localStorage });
        const loaded = t.queue.load().map((item) => [item.id, item.kind, item.where]);
        await t.queue.flush();
        const left = localStorage.getItem(fakes.QUEUE_KEY);
        localStorage.removeItem(fakes.QUEUE_KEY);
        return { loaded, sent: t.sent(), answered: t.answered.map((a) => a.id), left };
        """,
    )
    assert seen["loaded"] == [["c1", "finish", "Table 1"], ["c2", "confirm", "Table 1"]]
    assert seen["sent"] == ["c1", "c2"]
    assert seen["answered"] == ["c1", "c2"]
    assert seen["left"] == "[]"


def test_a_stored_capture_leaves_the_queue_and_the_page_hears_the_answer(modules_page):
    seen = run(
        modules_page,
        """
        const body = { result: { status: "finished", time: "0:05:00" } };
        const t = fakes.queue(Q, { answers: [[201, body]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        const request = t.server.requests[0];
        return {
          ids: t.ids(),
          answered: t.answered,
          url: request.url,
          method: request.options.method,
          headers: request.options.headers,
          credentials: request.options.credentials,
          sentBody: request.body,
          networkDown: t.queue.networkDown,
          retrying: t.queue.retrying,
        };
        """,
    )
    assert seen["ids"] == []
    assert seen["answered"] == [
        {"id": "c1", "body": {"result": {"status": "finished", "time": "0:05:00"}}}
    ]
    assert seen["url"] == "/api/v1/championships/test/captures/"
    assert seen["method"] == "POST"
    assert seen["credentials"] == "same-origin"
    assert seen["headers"] == {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "X-CSRFToken": "the-csrf-token",
    }
    assert seen["sentBody"]["id"] == "c1"
    assert (seen["networkDown"], seen["retrying"]) == (False, False)


def test_without_network_the_capture_is_kept_and_sent_again_with_backoff(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", "down", "down", "down", "down", "down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        const first = { ids: t.ids(), networkDown: t.queue.networkDown, delays: t.timers.delays() };
        const delays = [];
        for (let i = 0; i < 5; i += 1) {
          await t.timers.fire();
          delays.push(t.timers.delays()[0]);
        }
        const down = { ids: t.ids(), sent: t.sent() };
        await t.timers.fire(); // the network is back: 201
        return {
          first, delays, down,
          after: { ids: t.ids(), networkDown: t.queue.networkDown, retryDelay: t.queue.retryDelay,
                   timers: t.timers.delays(), answered: t.answered.length },
        };
        """,
    )
    assert seen["first"] == {"ids": ["c1"], "networkDown": True, "delays": [2000]}
    assert seen["delays"] == [4000, 8000, 16000, 30000, 30000], "backoff, at most 30 s"
    assert seen["down"] == {"ids": ["c1"], "sent": ["c1"] * 6}
    assert seen["after"] == {
        "ids": [],
        "networkDown": False,
        "retryDelay": 2000,
        "timers": [],
        "answered": 1,
    }


@pytest.mark.parametrize(
    ("status", "body", "login"),
    [
        (500, None, False),
        (502, {"detail": "Bad gateway"}, False),
        (503, None, False),
        (408, None, False),
        (429, {"detail": "Request was throttled."}, False),
        (401, {"detail": "Authentication credentials were not provided."}, True),
        (403, {"detail": "CSRF Failed: CSRF token missing."}, True),
    ],
)
def test_an_answer_that_may_change_keeps_the_capture(modules_page, status, body, login):
    """Server errors, timeouts, throttling and a lost session: kept, and sent again."""
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: [[arg.status, arg.body ?? undefined]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2", { entry: "e2" }), "Table 1");
        await t.queue.flush();
        const kept = { ids: t.ids(), sent: t.sent(), login: t.queue.loginNeeded,
                       refused: t.refused.length, delays: t.timers.delays() };
        await t.timers.fire();
        return { kept, after: { ids: t.ids(), sent: t.sent(), login: t.queue.loginNeeded } };
        """,
        {"status": status, "body": body},
    )
    assert seen["kept"] == {
        "ids": ["c1", "c2"],
        "sent": ["c1"],  # the next waits: strictly in order
        "login": login,
        "refused": 0,
        "delays": [2000],
    }
    assert seen["after"] == {"ids": [], "sent": ["c1", "c1", "c2"], "login": False}


def test_a_refused_capture_leaves_with_what_followed_it_for_the_same_entry(modules_page):
    seen = run(
        modules_page,
        """
        const refusal = { detail: "The heat has not started." };
        const t = fakes.queue(Q, { answers: [[201, {}], [400, refusal]] });
        t.queue.add(fakes.capture("other-before", { entry: "e2" }), "Table 1");
        t.queue.add(fakes.capture("finish"), "Table 1");
        t.queue.add(fakes.capture("other-after", { entry: "e2", kind: "confirm" }), "Table 1");
        t.queue.add(fakes.capture("confirm", { kind: "confirm" }), "Table 1");
        await t.queue.flush();
        return { sent: t.sent(), refused: t.refused, answered: t.answered.map((a) => a.id),
                 ids: t.ids(), retrying: t.queue.retrying };
        """,
    )
    # The confirmation of a time the server refused is never sent; the other entry's are.
    assert seen["sent"] == ["other-before", "finish", "other-after"]
    assert seen["refused"] == [{"id": "finish", "message": "The heat has not started."}]
    assert seen["answered"] == ["other-before", "other-after"]
    assert seen["ids"] == []
    assert seen["retrying"] is False


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"detail": "Not found."}, "Not found."),
        (
            {"at": ["The time is after the limit."], "kind": "Unknown."},
            "The time is after the limit. Unknown.",
        ),
        ({}, "error 400"),
        (None, "error 400"),  # no JSON at all (a proxy's page)
    ],
)
def test_a_refusal_says_what_the_server_said(modules_page, body, message):
    refused = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: [[400, arg === null ? undefined : arg]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        return t.refused;
        """,
        body,
    )
    assert refused == [{"id": "c1", "message": message}]


def test_the_queue_is_sent_in_order_one_capture_at_a_time(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["wait", "wait", "wait"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        const sending = t.queue.flush();
        t.queue.add(fakes.capture("c2", { kind: "confirm" }), "Table 1");
        t.queue.flush(); // a second flush while the first sends: nothing more is sent
        t.queue.flush();
        await fakes.settle();
        const inFlight = t.sent();
        const sendingId = t.queue.sendingId;
        t.server.release([201, {}]);
        await fakes.settle();
        const next = t.sent();
        t.queue.add(fakes.capture("c3"), "Table 1"); // tapped while c2 is on its way
        t.server.release([201, {}]);
        await fakes.settle();
        t.server.release([201, {}]);
        await sending;
        return { inFlight, sendingId, next, sent: t.sent(), answered: t.answered.map((a) => a.id),
                 ids: t.ids(), sendingAfter: t.queue.sendingId };
        """,
    )
    assert seen["inFlight"] == ["c1"]
    assert seen["sendingId"] == "c1"
    assert seen["next"] == ["c1", "c2"]
    assert seen["sent"] == ["c1", "c2", "c3"]
    assert seen["answered"] == ["c1", "c2", "c3"]
    assert seen["ids"] == []
    assert seen["sendingAfter"] is None


def test_a_capture_sent_again_is_the_same_capture(modules_page):
    """An answer lost on the way: the capture is sent again with its id, which the server
    stores once (tests/api covers the server's side)."""
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", [500, undefined], [201, {}]] });
        t.queue.add({ ...fakes.capture("c1"), missing_lost: 1 }, "Table 1");
        await t.queue.flush();
        await t.timers.fire();
        await t.timers.fire();
        const bodies = t.server.requests.map((r) => r.body);
        return { bodies, ids: t.ids(), answered: t.answered.length };
        """,
    )
    first, *again = seen["bodies"]
    assert len(again) == 2 and all(body == first for body in again)
    assert first["id"] == "c1" and first["missing_lost"] == 1
    assert seen["ids"] == [] and seen["answered"] == 1


def test_a_capture_another_page_sent_meanwhile_is_not_sent_again(modules_page):
    """Two tabs of the same table share the queue: one that finds it emptied sends nothing."""
    seen = run(
        modules_page,
        """
        const kept = fakes.storage();
        const tab = fakes.queue(Q, { storage: kept, answers: ["wait"] });
        tab.queue.add(fakes.capture("c1"), "Table 1");
        tab.queue.add(fakes.capture("c2"), "Table 1");
        const sending = tab.queue.flush();
        await fakes.settle();
        // The other tab sent both meanwhile.
        kept.setItem(fakes.QUEUE_KEY, "[]");
        tab.server.release([201, {}]);
        await sending;
        return { sent: tab.sent(), stored: tab.stored(), answered: tab.answered.map((a) => a.id) };
        """,
    )
    assert seen == {"sent": ["c1"], "stored": [], "answered": ["c1"]}


def test_the_network_coming_back_sends_at_once(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", "down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        await t.timers.fire();
        const before = { delay: t.queue.retryDelay, timers: t.timers.delays() };
        t.queue.offline();
        const offline = t.queue.networkDown;
        t.queue.online();
        const online = { networkDown: t.queue.networkDown, delay: t.queue.retryDelay,
                         timers: t.timers.delays() };
        await t.queue.flush();
        return { before, offline, online, ids: t.ids() };
        """,
    )
    assert seen["before"] == {"delay": 8000, "timers": [4000]}
    assert seen["offline"] is True
    assert seen["online"] == {"networkDown": False, "delay": 2000, "timers": []}
    assert seen["ids"] == []


@pytest.mark.parametrize("broken", ["getItem", "setItem"])
def test_without_storage_the_queue_lives_in_memory(modules_page, broken):
    """Private mode or a full storage: the page keeps the queue for as long as it lives."""
    seen = run(
        modules_page,
        """
        const kept = fakes.storage();
        kept[arg] = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
        const t = fakes.queue(Q, { storage: kept, answers: ["down"] });
        const works = t.queue.storageWorks;
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2"), "Table 1");
        await t.queue.flush();
        const waiting = { ids: t.ids(), works: t.queue.storageWorks };
        await t.timers.fire();
        return { works, waiting, ids: t.ids(), sent: t.sent() };
        """,
        broken,
    )
    assert seen["works"] is True
    assert seen["waiting"] == {"ids": ["c1", "c2"], "works": False}
    assert seen["ids"] == []
    assert seen["sent"] == ["c1", "c1", "c2"]


def test_what_is_not_a_capture_in_storage_is_left_out(modules_page):
    seen = run(
        modules_page,
        """
        const body = fakes.capture("c1");
        const good = { id: "c1", round: "final", entry: "e1", kind: "finish", body };
        const kept = fakes.storage({
          [fakes.QUEUE_KEY]: JSON.stringify([good, null, { id: "c2" }, { body: {} }, "c3"]),
        });
        const list = fakes.queue(Q, { storage: kept }).ids();
        const holding = (raw) =>
          fakes.queue(Q, { storage: fakes.storage({ [fakes.QUEUE_KEY]: raw }) });
        const notAList = holding("{}").ids();
        const garbled = holding("[{");
        return { list, notAList, garbled: garbled.ids(), garbledWorks: garbled.queue.storageWorks };
        """,
    )
    assert seen["list"] == ["c1"]
    assert seen["notAList"] == []
    assert seen["garbled"] == []
    assert seen["garbledWorks"] is False  # from then on in memory, as when storage fails
