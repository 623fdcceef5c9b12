"""Several hosts against one (issue 30), in the same run.  Prints figures; asserts nothing.

The load of ``bench_ssh_load.py`` twice on this machine: first one host serving every session
(``--sessions``, 90 by default), then ``--hosts`` hosts (3) sharing a throwaway PostgreSQL
cluster, the same sessions spread over them in turn (30 each) as a TCP balancer would, the
tables too (so most tables have people on several hosts: their client processes reach the
owner's tables over its peer port).  For each: the action -> every screen latency and the
memory per session; then the ratios.

    python benchmarks/bench_cluster.py [--sessions 90] [--hosts 3] [--tables 9] [--seconds 30]

All hosts run on this one machine, so the cluster cannot be faster here: what the run shows is
what the design costs (a database commit per logged line, a second hop for a table on another
host) at the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import bench_ssh_load  # noqa: E402
from pgcluster import Cluster  # noqa: E402

SHOWN = [
    ("screen_median_ms", "action -> a screen, median (ms)"),
    ("screen_p95_ms", "action -> a screen, p95 (ms)"),
    ("screen_worst_ms", "action -> a screen, worst (ms)"),
    ("action_median_ms", "action -> every screen of its table, median (ms)"),
    ("action_worst_ms", "action -> every screen of its table, worst (ms)"),
    ("pss_mib_per_session", "memory per session, PSS (MiB)"),
    ("rss_mib_per_session", "memory per session, RSS (MiB)"),
    ("server_mib", "server processes, RSS in all (MiB)"),
    ("actions", "actions observed"),
]


def main() -> int:
    ap = bench_ssh_load.arguments()
    ap.description = __doc__.splitlines()[0]
    ap.set_defaults(sessions=90, tables=9, hosts=3)
    args = ap.parse_args()
    hosts = max(2, args.hosts)
    one = argparse.Namespace(**{**vars(args), "hosts": 1, "database": None})
    print(f"=== one host, {args.sessions} sessions")
    base = asyncio.run(bench_ssh_load.main(one))
    with Cluster() as pg:
        several = argparse.Namespace(**{**vars(args), "hosts": hosts, "database": pg.fresh_database()})
        print(f"=== {hosts} hosts on PostgreSQL, {args.sessions // hosts} sessions each")
        spread = asyncio.run(bench_ssh_load.main(several))
    print(f"\n{'':52} {'1 host':>10} {f'{hosts} hosts':>10} {'ratio':>7}")
    for key, label in SHOWN:
        a, b = base.get(key), spread.get(key)
        if a is None or b is None:
            continue
        ratio = f"{b / a:.2f}x" if a else "-"
        print(f"{label:52} {a:10.1f} {b:10.1f} {ratio:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
