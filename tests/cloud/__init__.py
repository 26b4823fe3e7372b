"""The cloud in a box: real nova-api and glance-api from the peers, for the tests and for people.

:mod:`tests.cloud.box` starts and drives it; ``tests/cloud/conftest.py`` gives the tests the
fixtures ``cloud`` (one box per test process) and ``private_cloud`` (a box of a module's own);
``make cloud`` (``python -m tests.cloud``) runs one until Ctrl-C. This package's ``__init__``
imports nothing: the services import :mod:`tests.cloud.auth` inside their own environments.
"""
