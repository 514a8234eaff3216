/*
 * The timing rules on the judge's phone: what an attempt comes to, before the server says.
 *
 * The same rules as championship/rules/timing.py, in the same words, for the
 * time the phone shows the entrant while the server has not answered (or the
 * network is down). tests/data/rules/outcomes.json holds the cases that both
 * must agree on; a test runs them against this file in Chromium.
 *
 * An attempt and the rules use the names of the Python code (time_ms,
 * missing_found, penalty_seconds_per_piece, ...). Durations are milliseconds.
 * outcome() returns {kind, final_ms, penalty_ms, counted_pieces}, or
 * {error: code, field} for inputs that cannot be true (the codes of
 * timing.AttemptError).
 */
(function (root) {
  "use strict";

  function truncate(ms) {
    return ms - (ms % 1000);
  }

  function withinLimit(timeMs, limitMs) {
    return limitMs === null || limitMs === undefined || truncate(timeMs) <= limitMs;
  }

  // How long an attempt may run from the entry's own start: the limit, or less where the
  // organiser called time early (calledMs after the heat's start; an own start keeps its delay).
  function timeAllowed(limitMs, calledMs) {
    const none = (value) => value === null || value === undefined;
    if (none(calledMs)) return none(limitMs) ? null : limitMs;
    if (none(limitMs)) return calledMs;
    return Math.min(limitMs, calledMs);
  }

  // A judge's count at time-up stops at total - 1; a result may count every piece (whole):
  // a puzzle completed after the final signal, as published lists show it.
  function plausibleCount(counted, total, clusterMin, whole) {
    const most = whole ? total : total - 1;
    return counted === 0 || (counted >= clusterMin && counted <= most);
  }

  function attempt(values) {
    return {
      status: "pending",
      time_ms: null,
      missing_found: 0,
      missing_lost: 0,
      adjacent_missing: 0,
      last_piece_ms: null,
      pieces_placed: null,
      pieces_remaining: null,
      incorrect: false,
      ...values,
    };
  }

  function failure(field, code) {
    return { error: code, field };
  }

  // The correctly placed pieces: {counted} (null when not counted yet) or a failure.
  function countedPieces(a, total, clusterMin, judgeCount) {
    let counted;
    let field;
    if (a.pieces_placed !== null && a.pieces_placed !== undefined) {
      counted = a.pieces_placed;
      field = "pieces_placed";
    } else if (a.pieces_remaining !== null && a.pieces_remaining !== undefined) {
      counted = total - a.pieces_remaining;
      field = "pieces_remaining";
    } else {
      return { counted: null };
    }
    // Misplaced pieces do not count: such a puzzle never counts whole; nor does a judge's count.
    const whole = !a.incorrect && !judgeCount;
    if (!plausibleCount(counted, total, clusterMin, whole)) return failure(field, "pieces_implausible");
    return { counted };
  }

  function validate(a, total, clusterMin, judgeCount) {
    for (const field of ["missing_found", "missing_lost", "adjacent_missing"]) {
      if (a[field] < 0) return failure(field, "negative");
    }
    if (a.missing_found + a.missing_lost > total) return failure("missing_lost", "pieces_out_of_range");
    if (a.adjacent_missing > a.missing_lost) return failure("adjacent_missing", "adjacent_over_lost");
    if (a.adjacent_missing === 1) return failure("adjacent_missing", "adjacent_alone");
    for (const field of ["time_ms", "last_piece_ms"]) {
      if (a[field] !== null && a[field] < 0) return failure(field, "negative");
    }
    if (a.status === "finished" && a.time_ms === null) return failure("time_ms", "time_required");
    if (a.last_piece_ms !== null && a.time_ms !== null && a.last_piece_ms < a.time_ms) {
      return failure("last_piece_ms", "before_recorded_time");
    }
    // A last piece is a missing piece that turned up: it is charged as one found later.
    if (a.last_piece_ms !== null && a.missing_found === 0) {
      return failure("last_piece_ms", "last_piece_not_missing");
    }
    if (a.pieces_remaining !== null && !(a.pieces_remaining >= 0 && a.pieces_remaining <= total)) {
      return failure("pieces_remaining", "pieces_out_of_range");
    }
    const counted = countedPieces(a, total, clusterMin, judgeCount);
    return counted.error ? counted : null;
  }

  function chargedPieces(a, rules) {
    if (rules.penalty_charges === "found") return a.missing_found;
    let charged = a.missing_found + a.missing_lost;
    // dm: only the adjacent pieces that never turned up are a manufacturing fault.
    if (rules.adjacent_missing_waives_penalty) charged -= a.adjacent_missing;
    return charged;
  }

  function penaltyMs(a, rules) {
    return chargedPieces(a, rules) * rules.penalty_seconds_per_piece * 1000;
  }

  // sm has no "found later": every piece missing at TIME counts towards the limit.
  function countedMissing(a, rules) {
    return rules.pieces_found_later ? a.missing_lost : a.missing_found + a.missing_lost;
  }

  function isInvalid(a, rules) {
    return rules.max_lost_pieces !== null && countedMissing(a, rules) > rules.max_lost_pieces;
  }

  function lastPieceInWindow(a, rules) {
    const window = rules.late_last_piece_seconds;
    if (window === null || window === undefined || a.last_piece_ms === null) return false;
    return truncate(a.last_piece_ms) - truncate(a.time_ms) <= window * 1000;
  }

  function result(kind, values) {
    return { kind, final_ms: null, penalty_ms: 0, counted_pieces: null, ...values };
  }

  function unfinished(a, total, clusterMin) {
    const counted = countedPieces(a, total, clusterMin);
    if (counted.error) return counted;
    if (counted.counted === null) return result("pending");
    return result("unfinished", { counted_pieces: counted.counted });
  }

  // judgeCount: the pieces are a judge's count at time-up (at most every piece but one).
  function outcome(values, rules, total, timeLimitMs, timeCalledMs, judgeCount) {
    const a = attempt(values);
    const clusterMin = rules.counted_cluster_min_pieces;
    const invalidInput = validate(a, total, clusterMin, judgeCount);
    if (invalidInput) return invalidInput;
    if (["dns", "dsq", "pending"].includes(a.status)) return result(a.status);
    if (a.status === "unfinished") return unfinished(a, total, clusterMin);
    // TIME with misplaced pieces, after the limit or after time was called, is not a completion.
    if (a.incorrect && rules.misplaced_finish_is_unfinished) return unfinished(a, total, clusterMin);
    if (!withinLimit(a.time_ms, timeAllowed(timeLimitMs, timeCalledMs))) return unfinished(a, total, clusterMin);
    if (isInvalid(a, rules)) {
      const counted = countedPieces(a, total, clusterMin);
      return counted.error ? counted : result("invalid", { counted_pieces: counted.counted });
    }
    const recorded = truncate(a.time_ms);
    const penalty = penaltyMs(a, rules);
    if (lastPieceInWindow(a, rules)) {
      // dm: the last piece was placed within the search window: the actual finish stands.
      const waived = Math.min(1, a.missing_found) * rules.penalty_seconds_per_piece * 1000;
      const kept = Math.max(penalty - waived, 0);
      return result("completed", { final_ms: truncate(a.last_piece_ms) + kept, penalty_ms: kept });
    }
    return result("completed", { final_ms: recorded + penalty, penalty_ms: penalty });
  }

  root.PuzzleRules = {
    truncate,
    withinLimit,
    timeAllowed,
    plausibleCount,
    chargedPieces,
    countedMissing,
    lastPieceInWindow,
    outcome,
  };
})(typeof window !== "undefined" ? window : globalThis);
