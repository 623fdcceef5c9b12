"""Kill test for autosave: a game played by bots is killed with SIGKILL at random moments; the
log on disk must hold a prefix of the game with at most the action being applied missing.

    python scripts/kill_test.py --runs 50          # prints a summary, exit status 1 on failure
    python scripts/kill_test.py --runs 50 --power  # a power cut after each kill (see below)
    python scripts/kill_test.py child PATH SEED    # (used by the test) play one recorded game

The child plays a game of random bots (deterministic given SEED), records it to PATH with
``start_recording`` and prints the number of actions applied after each one, and ``s SIZE``
each time the log's file is fsynced (its size then: what is on the disk for sure).  The parent
kills it after a random delay, reads the log, and compares it with the same game replayed
in-process.

``--power`` also cuts the power after the kill: what was not fsynced may be lost, so the file is
cut to a random length between the last fsynced size and its size now (half of the runs to the
fsynced size exactly, the worst case).  Every action the child reported must still be there:
the writer fsyncs a line before the action is reported.  With ``--no-fsync``
(``COLOSSEUM_FSYNC=0`` in the child) the same check shows what turning fsync off would lose.
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
    from colosseum.core.games.colosseum import GameSetup
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
    import stat

    from colosseum.tui.storage import start_recording

    s = make_session(seed)
    start_recording(s, Path(path))  # created and fsynced
    out = sys.stdout
    out.write("ready\n")
    out.write(f"s {os.stat(path).st_size}\n")
    out.flush()
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            out.write(f"s {info.st_size}\n")
            out.flush()

    os.fsync = fsync
    while s.step_bot():
        out.write(f"{len(s.actions)}\n")
        out.flush()
        if delay:
            time.sleep(delay)
    out.write("done\n")
    out.flush()


def one_run(folder: Path, seed: int, rnd: random.Random, *, power: bool = False, fsync: bool = True) -> dict:
    """Start a child, kill it at a random moment (and cut the power: ``power``), check its log.
    Returns a result record."""
    from colosseum.core.gamelog import GameLogError
    from colosseum.core.logread import read_log

    path = folder / f"kill-{seed}.jsonl"
    delay = rnd.choice([0.0, 0.0005, 0.002])
    env = dict(os.environ, COLOSSEUM_FSYNC="1" if fsync else "0")
    proc = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "child", str(path), str(seed), str(delay)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
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
    progress += proc.stdout.read().splitlines()
    proc.stdout.close()
    proc.stderr.close()
    reported = 0
    synced = 0
    for tok in progress:
        tok = tok.strip()
        if tok.isdigit():
            reported = int(tok)
        elif tok.startswith(b"s "):
            synced = int(tok[2:])
    finished = b"done" in progress
    size = path.stat().st_size
    cut_to = size
    if power:  # what was not fsynced may be lost: keep the fsynced part, and maybe some more
        cut_to = synced if rnd.random() < 0.5 else rnd.randint(min(synced, size), size)
        os.truncate(path, cut_to)
    try:
        log = read_log(path)
    except GameLogError as e:
        return {"seed": seed, "ok": False, "why": f"unreadable log: {e}", "path": str(path)}
    got = log.actions
    allowed = ("truncated", "cut") if power else ("truncated",)
    ok = got == full[: len(got)] and len(got) >= reported and (log.error is None or log.error.kind in allowed)
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
        "size": size,
        "synced": synced,
        "cut_to": cut_to,
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "child":
        child(argv[1], int(argv[2]), float(argv[3]) if len(argv) > 3 else 0.0)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--power", action="store_true", help="cut the power after each kill (drop unsynced data)")
    ap.add_argument("--no-fsync", action="store_true", help="the child runs with COLOSSEUM_FSYNC=0")
    ap.add_argument("--dir", default=None, help="folder for the logs (default: a temporary one)")
    args = ap.parse_args(argv)
    rnd = random.Random(args.seed)
    bad = 0
    mid = 0
    dropped = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for k in range(args.runs):
            r = one_run(Path(tmp), args.seed * 1000 + k, rnd, power=args.power, fsync=not args.no_fsync)
            mid += 0 < r.get("saved", 0) < r.get("total", 0)
            dropped += r.get("size", 0) > r.get("cut_to", 0)
            if not r["ok"]:
                bad += 1
                print(f"FAIL seed {r['seed']}: {r['why']}")
    what = f", {dropped} lost unsynced bytes in the power cut" if args.power else ""
    print(
        f"{args.runs} runs, {mid} killed mid-game{what}, {bad} failures "
        f"({time.perf_counter() - t0:.1f} s{', fsync off' if args.no_fsync else ''})"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
