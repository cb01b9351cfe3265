"""The child side of `memlint estimate -- COMMAND`: installed by the generated
`sitecustomize` (verify's, `command.write_sitecustomize`) in every Python
process of the command. In the first process that reads the config (the
program; not the workers it may start) it enters the fake GPU before the
program's first line, counts optimizer steps, and when the last one asked
for has run, writes the prediction and ends the process. Where the program
cannot go on fake, the exception is turned into the one line of
`predict.why`, written with what was measured, and no traceback is shown.
"""

from __future__ import annotations

import json
import os
import sys
import time

CONFIG_ENV = "MEMLINT_ESTIMATE_CONFIG"


def install() -> None:
    path = os.environ.pop(CONFIG_ENV, "")  # popped: processes the program starts run as written
    if not path:
        return
    with open(path, encoding="utf-8") as handle:
        cfg = json.load(handle)
    from memlint.estimate import predict
    from memlint.estimate.fakegpu import FakeGPU
    from memlint.estimate.launch import World
    from memlint.estimate.tracker import StepTracker
    from memlint.estimate.whatif import WhatIfs

    started = time.perf_counter()
    gpu = (cfg["gpu"], cfg["capacity"])
    world = World(*cfg["world"]) if cfg.get("world") else None
    whatifs = WhatIfs(cfg.get("batch_size"), cfg.get("optimizer"), cfg.get("dtype"), cfg.get("checkpointing", False))
    state = {"written": False}

    def write(stopped: str) -> None:
        if state["written"]:
            return
        state["written"] = True
        result = predict.finish(tracker, gpu, started, stopped, (cfg.get("file", ""), cfg.get("line", 0)),
                                " ".join(cfg["argv"]), whatifs, cfg.get("snapshot"), world)
        with open(cfg["result"], "w", encoding="utf-8") as out:
            json.dump(result, out)

    def on_step(count: int) -> None:
        if count >= cfg["steps"]:
            write("")
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            os._exit(0)

    def excepthook(kind, value, tb) -> None:
        write(predict.why(value.with_traceback(tb)))

    tracker = StepTracker(on_step=on_step)
    FakeGPU(tracker, *gpu, batch_size=cfg.get("batch_size"), optimizer=cfg.get("optimizer"),
            world=world, whatifs=whatifs).__enter__()  # for the rest of the process
    tracker.start_training()
    sys.excepthook = excepthook
    import atexit

    atexit.register(lambda: write("" if tracker.record.steps else
                                  f"the program ended after {tracker.record.steps} optimizer steps"))
