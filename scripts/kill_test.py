"""Kill test for autosave: a game played by bots is killed with SIGKILL at random moments; the
log on disk must hold a prefix of the game with at most the action being applied missing.

    python scripts/kill_test.py --runs 50          # prints a summary, exit status 1 on failure
    python scripts/kill_test.py child PATH SEED    # (used by the test) play one recorded game

The child plays a game of random bots (deterministic given SEED), records it to PATH with
``start_recording`` and prints the number of actions applied after each one.  The parent kills
it after a random delay, reads the log, and compares it with the same game replayed in-process.
tests/tui/test_records.py runs a few of these; ``--runs`` (or COLOSSEUM_SOAK) for more.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")


def make_session(seed: int):
    from colosseum.core import GameSetup
    from colosseum.tui.session import LocalSession, Seat

    n = 3 + seed % 3
    setup = GameSetup(players=NAMES[:n], seed=seed)
    return LocalSession(setup, tuple(Seat("random") for _ in range(n)))


def full_game(seed: int) -> list:
    s = make_session(seed)
    while s.step_bot():
        pass
    return list(s.actions)


def child(path: str, seed: int, delay: float) -> None:
    from colosseum.tui.storage import start_recording

    s = make_session(seed)
    start_recording(s, Path(path))
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    while s.step_bot():
        out.write(f"{len(s.actions)}\n")
        out.flush()
        if delay:
            time.sleep(delay)
    out.write("done\n")
    out.flush()


def one_run(folder: Path, seed: int, rnd: random.Random) -> dict:
    """Start a child, kill it at a random moment, check its log.  Returns a result record."""
    from colosseum.core.gamelog import GameLogError, read_log

    path = folder / f"kill-{seed}.jsonl"
    delay = rnd.choice([0.0, 0.0005, 0.002])
    proc = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "child", str(path), str(seed), str(delay)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if first.strip() != b"ready":
        proc.kill()
        proc.wait()
        return {"seed": seed, "ok": False, "why": f"child did not start: {first!r} {proc.stderr.read()[-500:]!r}"}
    # kill once the child has got to a random point of the game (it keeps playing meanwhile)
    full = full_game(seed)
    target = rnd.randint(0, len(full))
    progress: list[bytes] = []
    while target:
        line = proc.stdout.readline()
        if not line:
            break
        progress.append(line.strip())
        if line.strip().isdigit() and int(line) >= target or line.strip() == b"done":
            break
    time.sleep(rnd.uniform(0, 0.002))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    progress += proc.stdout.read().split()
    proc.stdout.close()
    proc.stderr.close()
    reported = 0
    for tok in progress:
        if tok.isdigit():
            reported = int(tok)
    finished = b"done" in progress
    try:
        log = read_log(path)
    except GameLogError as e:
        return {"seed": seed, "ok": False, "why": f"unreadable log: {e}"}
    got = log.actions
    ok = got == full[: len(got)] and len(got) >= reported and (log.error is None or log.error.kind == "truncated")
    why = "" if ok else f"got {len(got)} actions, child reported {reported}, error {log.error}"
    return {
        "seed": seed,
        "ok": ok,
        "why": why,
        "saved": len(got),
        "reported": reported,
        "total": len(full),
        "finished": finished,
        "error": str(log.error) if log.error else "",
        "path": str(path),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "child":
        child(argv[1], int(argv[2]), float(argv[3]) if len(argv) > 3 else 0.0)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rnd = random.Random(args.seed)
    bad = 0
    mid = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            r = one_run(Path(tmp), args.seed * 1000 + k, rnd)
            mid += 0 < r.get("saved", 0) < r.get("total", 0)
            if not r["ok"]:
                bad += 1
                print(f"FAIL seed {r['seed']}: {r['why']}")
    print(f"{args.runs} runs, {mid} killed mid-game, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
