"""A person plays the bots: ``smear-rl play`` in the terminal.

The parts a web table or the bot service can reuse hold no terminal code:

* :mod:`~smear_rl.play.games`: Smear (any preset or house rules) and Bohemian Schneider behind one interface;
* :mod:`~smear_rl.play.session`: a match with a person at one seat and bots at the others, as events;
* :mod:`~smear_rl.play.events`: what happens at the table as one seat may see it (JSON-able);
* :mod:`~smear_rl.play.entry`: typed moves and commands, and why a move is refused;
* :mod:`~smear_rl.play.hand`: a hand grouped by suit, trumps first;
* :mod:`~smear_rl.play.breakdown`: what a finished hand scored, as plain data.

The terminal itself: :mod:`~smear_rl.play.render` (rich renderables) and
:mod:`~smear_rl.play.terminal` (the loop), started by :mod:`~smear_rl.play.cli`.
"""
