"""Letting a screenshot's app run a while before it is photographed: the one place the shot tools pass time."""
from __future__ import annotations


def settle(app, seconds: float = 0.5, dt: float = 1 / 30) -> None:
    """Step ``app`` with no input in frames of ``dt`` seconds, ``int(seconds / dt)`` of them (animations finish,
    toasts fade in, widgets lay out). Each builder picks its own ``seconds``; the shots depend on the count."""
    for _ in range(int(seconds / dt)):
        app.step(dt, [])
