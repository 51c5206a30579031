"""Players behind one small interface (:class:`agents.base.Agent`)."""

from agents.base import Agent
from agents.random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent"]
