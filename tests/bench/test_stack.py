"""bench.stack's process handling that the scenarios lean on: pinning a role's processes to CPUs."""

import os
import sys
import time

import psutil

from bench.stack import Stack, StackConfig

# A parent that starts a child, as uvicorn starts its workers.
PARENT = (
    "import subprocess, sys, time; "
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); time.sleep(30)"
)
SLEEPER = "import time; time.sleep(30)"


def test_pin_puts_a_roles_process_and_its_children_on_the_given_cpus(tmp_path):
    cpus = sorted(os.sched_getaffinity(0))
    stack = Stack(StackConfig(database_url="", redis_url="", log_dir=tmp_path))
    web = stack._spawn("web", "pin-web", [sys.executable, "-c", PARENT], dict(os.environ))
    worker = stack._spawn("worker", "pin-worker", [sys.executable, "-c", SLEEPER], dict(os.environ))
    try:
        deadline = time.monotonic() + 10
        while len(web.processes()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(web.processes()) == 2

        assert stack.pin("web", [cpus[0]]) == 2

        assert all(process.cpu_affinity() == [cpus[0]] for process in web.processes())
        assert sorted(psutil.Process(worker.pid).cpu_affinity()) == cpus  # another role is left alone
    finally:
        for proc in (web, worker):
            for process in proc.processes():
                process.kill()
