"""Which allocations are live at a rank's peak, from a CUDA memory snapshot
(`torch.cuda.memory._dump_snapshot`, taken by public/measure_hook with MEASURE_HISTORY=1).

    python peak_owners.py SNAPSHOT.pickle [TOP]

Replays the snapshot's allocation trace, finds the peak of allocated bytes and prints the
largest blocks live there with the Python frames that allocated them.
"""

from __future__ import annotations

import pickle
import sys


def main() -> None:
    with open(sys.argv[1], "rb") as handle:
        snapshot = pickle.load(handle)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    live: dict[int, dict] = {}
    current = peak = 0
    at_peak: list[dict] = []
    trace = max(snapshot["device_traces"], key=len)  # the rank's own GPU
    for event in trace:
        if event["action"] == "alloc":
            live[event["addr"]] = event
            current += event["size"]
            if current > peak:
                peak, at_peak = current, list(live.values())
        elif event["action"] == "free_completed" and event["addr"] in live:
            current -= live.pop(event["addr"])["size"]
    print(f"peak of the trace: {peak / 2**20:.1f} MiB over {len(at_peak)} live blocks")
    for event in sorted(at_peak, key=lambda e: -e["size"])[:top]:
        frames = [f"{f['filename'].split('site-packages/')[-1]}:{f['line']} {f['name']}" for f in event.get("frames", [])
                  if f["filename"].endswith(".py")][:4]
        print(f"  {event['size'] / 2**20:9.1f} MiB  " + " <- ".join(frames))


if __name__ == "__main__":
    main()
