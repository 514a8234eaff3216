"""The judge's page's modules in Chromium: merging the server's state with the phone's."""

import pytest

from tests.browser.judge_modules import run

pytestmark = pytest.mark.browser


# Merging the server's state with the phone's -----------------------------------------------


def test_the_server_state_as_the_phone_keeps_it(modules_page):
    seen = run(
        modules_page,
        """
        const mine = M.serverFields(fakes.entry({
          step: "timed", result: fakes.finished(),
          finish: {
            ...fakes.myFinish(), found: 1, lost: 2, adjacent: 2, lastPieceMs: fakes.START + 310000,
          },
        }));
        const others = M.serverFields(fakes.entry({
          step: "review", result: fakes.finished(), finish: { ...fakes.myFinish(), mine: false },
        }));
        const corrected = M.serverFields(fakes.entry({
          step: "confirmed",
          result: fakes.finished({ missing_lost: 1, last_piece_ms: 305000, confirmed: true }),
          finish: fakes.myFinish(),
        }));
        const count = M.serverFields(fakes.entry({
          step: "counted", ownCount: 480,
          result: fakes.finished({ status: "unfinished", pieces_placed: 470, incorrect: true }),
        }));
        const pick = (s) => ({
          tapAt: s.tapAt, found: s.found, lost: s.lost, adjacent: s.adjacent,
          lastPieceAt: s.lastPieceAt, sent: s.sent, count: s.count, editable: s.editable,
          own: s.own,
        });
        return {
          mine: pick(mine), others: pick(others), corrected: pick(corrected), count: pick(count),
        };
        """,
    )
    start = 1746093600000
    assert seen["mine"] == {
        "tapAt": start + 300000,
        "found": 1,
        "lost": 2,
        "adjacent": 2,
        "lastPieceAt": start + 310000,
        "sent": {"found": 1, "lost": 2, "adjacent": 2, "lastPieceAt": start + 310000},
        "count": None,
        "editable": True,
        "own": False,
    }
    assert seen["others"]["tapAt"] is None and seen["others"]["editable"] is False
    # A confirmed result corrected since the tap: the result, not the tap, is the truth.
    assert seen["corrected"]["tapAt"] is None
    assert (seen["corrected"]["lost"], seen["corrected"]["lastPieceAt"]) == (1, start + 305000)
    # A count: this judge's own, not the first judge's the server leaves out.
    assert seen["count"]["count"] == {"placed": 480, "incorrect": True}


def test_a_newer_kept_state_is_where_a_kept_page_starts(modules_page):
    """The service worker shows the page of the last visit; the state heard since is newer."""
    seen = run(
        modules_page,
        """
        const page = fakes.config([fakes.entry()]);
        const review = fakes.entry({
          step: "review", result: fakes.finished(), finish: fakes.myFinish(),
        });
        const newer = { ...page, version: "v2", atMs: page.atMs + 1000, seats: [review] };
        const older = { ...newer, atMs: page.atMs - 1000 };
        const key = M.knownKey(page.stateUrl);
        const from = (saved) =>
          M.knownState(page, fakes.storage(saved === undefined ? {} : { [key]: saved }));
        const broken = { getItem() { throw new Error("denied"); } };
        const known = from(JSON.stringify(newer));
        const otherHeat = { ...newer, layout: "l2" };
        return {
          key,
          newer: known.version,
          older: from(JSON.stringify(older)).version,
          garbled: from("{").version,
          none: from(undefined).version,
          broken: M.knownState(page, broken).version,
          seat: M.startingSeats(page, known, "Table 1")
            .map((s) => [s.step, s.where, s.tapAt !== null]),
          otherHeat: M.startingSeats(page, otherHeat, "Table 1").map((s) => s.step),
        };
        """,
    )
    assert seen["key"] == "judging-table:/t/token/state/"
    assert seen["newer"] == "v2"
    assert seen["older"] == seen["garbled"] == seen["none"] == seen["broken"] == "v1"
    assert seen["seat"] == [["review", "Table 1 · Ingrid Hansen", True]]
    # Another heat took the table since: the page's own entries, as the page says.
    assert seen["otherHeat"] == ["puzzling"]


@pytest.mark.parametrize(
    ("second_count", "step"), [(False, "review"), (True, "counted")], ids=["one", "two-judges"]
)
def test_taps_waiting_in_the_queue_win_over_the_page_after_a_reload(
    modules_page, second_count, step
):
    seen = run(
        modules_page,
        """
        const seats = fakes.seats(M, [
          fakes.entry(),
          fakes.entry({ entry: "e2", name: "Ola", step: "timeup" }),
          fakes.entry({ entry: "e3", name: "Kari", step: "review", result: fakes.finished() }),
        ]);
        const item = (body) =>
          ({ id: body.id, round: body.round, entry: body.entry, kind: body.kind, body });
        const queued = [
          item({
            ...fakes.capture("f1"), at: "2025-05-01T10:04:59.500Z", missing_found: 1,
            missing_lost: 2, adjacent_missing: true, last_piece_at: "2025-05-01T10:05:10.000Z",
          }),
          item({
            ...fakes.capture("p1", { entry: "e2", kind: "pieces" }),
            pieces_placed: null, pieces_remaining: 20,
          }),
          item(fakes.capture("k1", { entry: "e3", kind: "confirm" })),
          item(fakes.capture("x1", { entry: "e9" })),  // an entry no longer at the table
        ];
        M.restoreFromQueue(seats, queued, { secondCount: arg });
        return seats.map((s) => ({
          step: s.step, own: s.own, tapAt: s.tapAt, found: s.found, lost: s.lost,
          adjacent: s.adjacent, lastPieceAt: s.lastPieceAt, count: s.count,
        }));
        """,
        second_count,
    )
    finish, count, confirm = seen
    assert finish == {
        "step": "timed",
        "own": True,
        "tapAt": 1746093899500,
        "found": 1,
        "lost": 2,
        "adjacent": 2,  # true, from an earlier release's queue: every lost piece
        "lastPieceAt": 1746093910000,
        "count": None,
    }
    assert count["step"] == step
    assert count["count"] == {"placed": 480, "remaining": 20, "incorrect": False}
    assert confirm["step"] == "confirmed"


def test_a_tap_waiting_in_the_queue_wins_over_stale_server_state(modules_page):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "timed";
        seat.own = true;
        seat.tapAt = fakes.START + 300000;
        // The server has not heard of the tap yet, and the organiser called time early.
        const stale = fakes.entry({
          calledMs: 600000, timeUpMs: fakes.START + 600000, heatState: "closing",
        });
        const taken = M.merge(seat, stale, { since: 0, pending: true, forced: false, typing: no });
        return { taken, step: seat.step, tapAt: seat.tapAt, calledMs: seat.calledMs,
                 timeUpMs: seat.timeUpMs, heatState: seat.heatState };
        """,
    )
    assert seen["taken"] == "kept"
    assert (seen["step"], seen["tapAt"]) == ("timed", 1746093900000)
    # The clock is the server's alone, whatever waits.
    assert (seen["calledMs"], seen["timeUpMs"]) == (600000, 1746094200000)
    assert seen["heatState"] == "closing"


def test_an_answer_to_a_question_asked_before_the_tap_was_stored_is_not_taken(modules_page):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "review";
        seat.own = true;
        seat.changed = 3; // the server stored the tap after the question (since 2) was sent
        const stale = fakes.entry();
        const options = { since: 2, pending: false, forced: false, typing: no };
        const before = M.merge(seat, stale, options);
        return { before, step: seat.step };
        """,
    )
    assert seen == {"before": "kept", "step": "review"}


def test_once_the_tap_is_stored_the_server_is_followed(modules_page):
    """A confirmed tap has left the queue; what the server says of it replaces the phone's."""
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "confirmed";
        seat.own = true;
        seat.changed = 2;
        seat.refusal = null;
        seat.autoFound = true;
        const stored = fakes.entry({
          step: "confirmed", finish: fakes.myFinish(),
          result: fakes.finished({ confirmed: true, missing_found: 1 }),
        });
        const options = { since: 2, pending: false, forced: false, typing: no };
        const taken = M.merge(seat, stored, options);
        return { taken, step: seat.step, found: seat.found, own: seat.own,
                 autoFound: seat.autoFound, server: seat.server === stored,
                 corrected: seat.corrected };
        """,
    )
    assert seen == {
        "taken": "replaced",
        "step": "confirmed",
        "found": 1,
        "own": False,
        "autoFound": False,
        "server": True,
        "corrected": False,
    }


@pytest.mark.parametrize(
    ("phone", "server", "taken"),
    [
        # The judge is in the middle of something: the step stays, the result is noted.
        ({"step": "timed", "own": True}, {"step": "review"}, "noted"),
        ({"step": "review", "own": True}, {"step": "review"}, "noted"),
        ({"step": "timeup", "own": True}, {"step": "timeup"}, "noted"),
        # Nothing of this judge here: the server's step.
        ({"step": "puzzling", "own": False}, {"step": "review"}, "replaced"),
        ({"step": "timeup", "own": False}, {"step": "review"}, "replaced"),
        ({"step": "waiting", "own": False}, {"step": "puzzling"}, "replaced"),
        # Confirmed or out at the server is the end, whatever the judge was doing.
        ({"step": "review", "own": True}, {"step": "confirmed"}, "replaced"),
        ({"step": "timed", "own": True}, {"step": "out"}, "replaced"),
        # Waiting for another judge's count or the head judge: the server knows.
        ({"step": "counted", "own": True}, {"step": "review"}, "replaced"),
        ({"step": "counted", "own": True}, {"step": "counted"}, "noted"),
        ({"step": "disputed", "own": True}, {"step": "review"}, "replaced"),
    ],
)
def test_whose_step_counts(modules_page, phone, server, taken):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        Object.assign(seat, arg.phone);
        const result = ["review", "confirmed"].includes(arg.server.step) ? fakes.finished() : null;
        const data = fakes.entry({ ...arg.server, result });
        const taken = M.merge(seat, data, { since: 0, pending: false, forced: false, typing: no });
        return { taken, step: seat.step, result: seat.result, server: seat.server === data };
        """,
        {"phone": phone, "server": server},
    )
    assert seen["taken"] == taken
    assert seen["step"] == (server["step"] if taken == "replaced" else phone["step"])
    assert seen["server"] is True  # the server's state is what the next answer is compared with


def test_a_refused_capture_puts_the_entry_back_to_the_server_unless_the_judge_types(
    modules_page,
):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        const item = { id: "k1", round: "final", entry: "e1", kind: "confirm" };
        seat.step = "confirmed";
        seat.own = true;
        M.applyRefusal(seat, item, "The entrant is disqualified.");
        const refused = { step: seat.step, refusal: seat.refusal, saved: seat.saved };
        const data = fakes.entry({
          step: "review", result: fakes.finished(), finish: fakes.myFinish(),
        });
        const typing = M.merge(seat, data, { since: 0, pending: false, forced: true, typing: yes });
        const typingStep = seat.step;
        const left = M.merge(seat, data, { since: 0, pending: false, forced: true, typing: no });
        return { refused, typing, typingStep, left, step: seat.step, refusal: seat.refusal };
        """,
    )
    # Never "Confirmed" for a refused confirmation.
    assert seen["refused"] == {
        "step": "review",
        "refusal": "The entrant is disqualified.",
        "saved": False,
    }
    assert (seen["typing"], seen["left"]) == ("deferred", "replaced")
    assert seen["typingStep"] == "review"
    assert seen["step"] == "review"
    assert seen["refusal"] == "The entrant is disqualified.", "the refusal stays on screen"


def test_a_confirmed_result_that_changes_is_marked_corrected(modules_page):
    seen = run(
        modules_page,
        """
        const confirmed = fakes.entry({
          step: "confirmed", result: fakes.finished({ confirmed: true }),
        });
        const [seat] = fakes.seats(M, [confirmed]);
        const options = { since: 0, pending: false, forced: false, typing: no };
        const same = M.merge(seat, confirmed, options);
        const sameCorrected = Boolean(seat.corrected);
        const changed = fakes.entry({
          step: "confirmed",
          result: fakes.finished({ confirmed: true, final_seconds: 305, penalty_seconds: 5 }),
        });
        const taken = M.merge(seat, changed, options);
        return { same, sameCorrected, taken, corrected: seat.corrected,
                 final: seat.result.final_seconds };
        """,
    )
    assert (seen["same"], seen["sameCorrected"]) == ("noted", False)
    assert (seen["taken"], seen["corrected"], seen["final"]) == ("replaced", True, 305)


def test_the_servers_answer_to_a_capture_moves_the_entry_on(modules_page):
    seen = run(
        modules_page,
        """
        const answer = (step, item, body, pending = false) => {
          const [seat] = fakes.seats(M, [fakes.entry()]);
          seat.step = step;
          seat.tapAt = fakes.START + 300000;
          const refill = M.applyAnswer(seat, item, body, { pending });
          return { refill, step: seat.step, saved: seat.saved, countState: seat.countState,
                   result: seat.result, tapAt: seat.tapAt, count: seat.count };
        };
        const pieces = { id: "p1", kind: "pieces" };
        const count = (counted, state) =>
          ({ result: { status: "unfinished", counted_pieces: counted, count_state: state } });
        const agreed = count(480, "agreed");
        const disputed = count(null, "disputed");
        const stored = { result: { status: "finished", time: "0:05:00" } };
        return {
          finish: answer("review", { id: "f1", kind: "finish" }, stored),
          agreed: answer("counted", pieces, agreed),
          disputed: answer("counted", pieces, disputed),
          waiting: answer("counted", pieces, agreed, true),
          correction: answer(
            "confirmed", { id: "c1", kind: "correction" },
            { result: { status: "unfinished", counted_pieces: 470, incorrect: false } },
          ),
        };
        """,
    )
    finish = seen["finish"]
    assert (finish["refill"], finish["step"], finish["saved"]) == (False, "review", True)
    assert finish["result"] == {"status": "finished", "time": "0:05:00", "time_ms": 300000}
    assert (seen["agreed"]["step"], seen["agreed"]["countState"]) == ("review", "agreed")
    assert seen["disputed"]["step"] == "disputed"
    # Another capture of the entry still waits: not saved yet, and the step waits too.
    assert (seen["waiting"]["step"], seen["waiting"]["saved"]) == ("counted", False)
    correction = seen["correction"]
    assert correction["refill"] is True
    assert (correction["tapAt"], correction["count"]) == (None, {"placed": 470, "incorrect": False})
