"""The bot service: every bot one HTTP call away (``smear-rl serve``), for any front end.

* :mod:`~smear_rl.server.app`: the FastAPI application (``create_app(settings)``) and its routes;
* :mod:`~smear_rl.server.rebuild` / :mod:`~smear_rl.server.rebuild_schneider`: a seat's exact
  information state rebuilt from the events it saw (stateless suggest);
* :mod:`~smear_rl.server.tables`: stateful tables where bots move on their own;
* :mod:`~smear_rl.server.history`: matches as events, and what each seat may see of them;
* :mod:`~smear_rl.server.limits`: the settings that bound the service;
* :mod:`~smear_rl.server.guards`: who a client is, what it may hold, where its token travels;
* :mod:`~smear_rl.server.pools`, :mod:`~smear_rl.server.work`, :mod:`~smear_rl.server.workers`,
  :mod:`~smear_rl.server.fair`: where the work runs (worker processes), what they run, and
  whose turn it is;
* :mod:`~smear_rl.server.apidocs`: the API reference page at ``/docs``, needing nothing else.

The protocol is documented in ``docs/protocol.md``; who may see and do what, and what bounds
each client, in ``docs/service-security.md``.
"""
