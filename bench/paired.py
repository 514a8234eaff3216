"""The summary of a paired measurement: each variant's median, its spread, and the ratio."""

from __future__ import annotations

import statistics


def summary(times: dict[str, list[float]], slower: str, faster: str, digits: int = 1) -> dict:
    """Return each variant's median and interquartile range (ms), and slower's over faster's."""
    report = {}
    for name, samples in times.items():
        quartiles = statistics.quantiles(samples, n=4)
        report[name] = {
            "median_ms": round(statistics.median(samples), digits),
            "spread_ms": round(quartiles[2] - quartiles[0], digits),
        }
    report["ratio"] = round(report[slower]["median_ms"] / report[faster]["median_ms"], 1)
    return report
