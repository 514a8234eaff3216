"""wrk, the load generator: installed when missing, run with ``wrk.lua``, its summary read."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

from bench import BenchError, log

LUA = Path(__file__).resolve().parent / "wrk.lua"


def ensure_installed(program: str, package: str, *, where: str | None = None) -> str:
    """Return the path of ``program``, installing Debian's ``package`` when it is missing."""

    def found() -> str | None:
        return shutil.which(program) or (where if where and os.access(where, os.X_OK) else None)

    if found():
        return found()
    log(f"{program} is missing: apt-get install {package}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", package]
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
        result = subprocess.run(install, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise BenchError(f"could not install {package}: {result.stderr.strip()[-500:]}")
    if not found():
        raise BenchError(f"{program} is still missing after apt-get install {package}")
    return found()


def ensure_wrk() -> str:
    return ensure_installed("wrk", "wrk")


def ensure_nginx() -> str:
    return ensure_installed("nginx", "nginx-light", where="/usr/sbin/nginx")


def run_wrk(wrk, url, *, connections, duration, headers=(), delay_ms=None, threads=1):
    command = wrk_command(wrk, url, connections, duration, headers, delay_ms, threads)
    result = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60)
    return wrk_summary(result.stdout, result.stderr, result.returncode)


def wrk_command(wrk, url, connections, duration, headers, delay_ms, threads):
    command = [
        wrk,
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{duration}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        url,
        "--",
        *headers,
    ]
    if delay_ms:
        command.append(f"delay={delay_ms}")
    return command


def wrk_summary(stdout: str, stderr: str, returncode: int) -> dict:
    match = re.search(r"^WRK_JSON (.*)$", stdout, re.M)
    if not match:
        raise BenchError(f"wrk gave no summary (exit {returncode}):\n{stdout}\n{stderr}")
    data = json.loads(match.group(1))
    seconds = data["duration_us"] / 1e6
    errors = sum(
        data[k]
        for k in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
    )
    return {
        **data,
        "rps": data["requests"] / seconds if seconds else 0.0,
        "errors": errors,
        "bytes_per_response": data["bytes"] / data["requests"] if data["requests"] else 0,
        "p50_ms": data["p50_us"] / 1000,
        "p99_ms": data["p99_us"] / 1000,
    }


def combine(parts: list[dict]) -> dict:
    """Return the runs of one URL as one: requests over time, the median p50, the worst p99."""
    requests = sum(p["requests"] for p in parts)
    seconds = sum(p["duration_us"] for p in parts) / 1e6
    return {
        "requests": requests,
        "seconds": seconds,
        "rps": requests / seconds if seconds else 0.0,
        "errors": sum(p["errors"] for p in parts),
        "bytes_per_response": sum(p["bytes"] for p in parts) / requests if requests else 0,
        "p50_ms": sorted(p["p50_ms"] for p in parts)[len(parts) // 2],
        "p99_ms": max(p["p99_ms"] for p in parts),
        "runs": parts,
    }


def stop_wrk(process) -> dict:
    """Stop a wrk started in the background (its summary comes on SIGINT); return the summary."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return wrk_summary(out, err, process.returncode)
