"""Failover drill for several hosts (issue 30) at random points: each round starts a fresh
database on one throwaway PostgreSQL cluster, three ``colosseum serve --host-id`` hosts and six
players at two tables (a Colosseum and a Municipium table, each with people on two hosts),
kills (SIGKILL) the host owning a table chosen at random once it has a random number of actions,
lets the players come back through the hosts still up and finish, and checks the logs in the
database: every acknowledged action at its number, none twice, the digest chains verify, the
games over.  ``--pause`` pauses the owner (SIGSTOP past its lease, then SIGCONT) instead;
``--term`` stops it as an operator does (SIGTERM: its tables handed over at once);
``--outage`` stops the database itself for twice the lease, then starts it again, and requires
more: every table still on the host that had it (one generation of its lease), nobody sent to
find it again (D-105).

    python scripts/cluster_failover.py --kills 20          # the issue's twenty points
    python scripts/cluster_failover.py --kills 2 --seed 5  # a quick look
    python scripts/cluster_failover.py --kills 20 --tls    # the peer ports over TLS
    python scripts/cluster_failover.py --kills 10 --outage # the database away, not a host
    python scripts/cluster_failover.py --kills 10 --term   # hosts stopped one at a time

CI runs two kill points (tests/cluster/test_failover.py); this is the long run.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from clusterdrill import Drill  # noqa: E402
from pgcluster import Cluster  # noqa: E402

LAYOUT = [("colosseum", [0, 0, 1]), ("municipium", [1, 2, 1])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=20, help="rounds, each with one host killed at a random point")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pause", action="store_true", help="SIGSTOP the owner past its lease instead of SIGKILL")
    ap.add_argument("--tls", action="store_true", help="the hosts' peer ports speak TLS (serve --peer-tls)")
    ap.add_argument("--outage", action="store_true", help="stop the database for twice the lease instead")
    ap.add_argument("--term", action="store_true", help="stop the owner with SIGTERM (a rolling restart) instead")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    # SIGTERM (kill, a time limit) leaves as Ctrl+C does: each round's hosts and the PostgreSQL
    # cluster are stopped and their folders removed on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    failed, took, acked, actions = 0, [], 0, 0
    with Cluster() as pg:
        for k in range(args.kills):
            table = rng.randrange(2)
            # inside every game: three random players' games took 56-104 actions (Colosseum) and
            # 164-440 (Municipium) over 400 seeds
            at = rng.randrange(1, 50 if table == 0 else 150)
            root = Path(tempfile.mkdtemp(prefix="colosseum-drill-"))
            drill = Drill(root, pg.fresh_database(), seed=args.seed * 1000 + k, tls=args.tls)
            started = time.monotonic()
            kept = False
            try:
                drill.start(3)
                drill.seat_players(LAYOUT)
                result = drill.play(
                    kill=(table, at),
                    pause=6.0 if args.pause else 0.0,
                    outage=(lambda: outage(pg)) if args.outage else None,
                    sig=signal.SIGTERM if args.term else signal.SIGKILL,
                )
                if result["errors"]:
                    raise AssertionError("; ".join(result["errors"]))
                figures = drill.check()
                if args.outage:
                    stayed(drill, figures)
                acked += figures["acked"]
                actions += sum(figures["actions"].values())
                took.append(time.monotonic() - started)
                gens = figures["gens"][drill.tables[table]]
                print(
                    f"round {k + 1}: {'the database' if args.outage else result['killed']} stopped at table "
                    f"{table + 1}'s action {at}: "
                    f"passed in {took[-1]:.1f} s (generations {gens}; {figures['acked']} acknowledged actions)",
                    flush=True,
                )
            except (AssertionError, OSError) as exc:
                failed += 1
                print(
                    f"round {k + 1}: table {table + 1} at action {at}: FAILED: {exc} (its hosts' data: {root})",
                    flush=True,
                )
                for h in drill.hosts:
                    print(f"--- {h.name}\n" + "".join(h.out[-40:]), flush=True)
                kept = True  # to be looked at
            finally:
                drill.close()
                if not kept:
                    shutil.rmtree(root, ignore_errors=True)
    rounds = args.kills
    median = statistics.median(took) if took else 0.0
    print(
        f"{rounds - failed}/{rounds} rounds passed; {acked} acknowledged actions of {actions} checked; "
        f"median round {median:.1f} s"
    )
    return 1 if failed else 0


def outage(pg: Cluster) -> None:
    """The database away for twice the drill's lease (3 s), then back."""
    pg.stop()
    time.sleep(6.0)
    pg.start()


def stayed(drill: Drill, figures: dict[str, object]) -> None:
    """After an outage: every table on the host that had it, nobody sent to find it again."""
    gens = figures["gens"]
    assert isinstance(gens, dict)
    for tid in drill.tables:
        assert [g for g, _first, _last in gens[tid]] == [1], f"table {tid} changed hosts: {gens[tid]}"
    moved = [p.name for p in drill.players if p.reconnects]
    assert not moved, f"sent to find their table again: {moved}"


if __name__ == "__main__":
    sys.exit(main())
