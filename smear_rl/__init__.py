"""smear-rl front ends: the ``smear-rl`` command line, the bot service and the places a person plays.

The layers below stay apart: :mod:`smear_env` (rules engine and environments),
:mod:`agents` (bots, torch-free), :mod:`training` (self-play and evaluation, needs
torch). This package only drives them.
"""
