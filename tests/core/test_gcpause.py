"""``paused_gc``: the collector is off inside, back as it was after the last thread leaves."""

from __future__ import annotations

import gc
import os
import threading

import pytest

from colosseum.core.gcpause import paused_gc


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_off_inside_and_back_after_nested_uses() -> None:
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_back_after_an_exception() -> None:
    with pytest.raises(ValueError), paused_gc():
        raise ValueError
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_threads_overlapping_leave_it_enabled_once_all_are_out() -> None:
    inside = threading.Barrier(3)
    leave = threading.Event()

    def play() -> None:
        with paused_gc():
            inside.wait()
            leave.wait()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert not gc.isenabled()
    leave.set()
    for t in threads:
        t.join()
    assert gc.isenabled()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_child_forked_during_a_pause_has_the_collector_back() -> None:
    r, w = os.pipe()
    with paused_gc():
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.write(w, b"1" if gc.isenabled() else b"0")
            os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    assert os.read(r, 1) == b"1"
    os.close(r)
    assert gc.isenabled()
