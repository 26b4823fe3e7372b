"""The one base of every exception onespec raises on purpose.

A service or a script that calls onespec wants one ``except`` for "onespec refused this",
whatever the area: an extra spec, a file, a Heat template, an image spec, a plugin label, the
API. Each area keeps its own base and its own classes (and the ``ValueError``,
``LookupError``, ``TypeError`` or ``click.ClickException`` its callers catch); all of them
derive from :class:`OnespecError` as well.

The bases of the areas, each an :class:`OnespecError`: ``DefinitionError`` (the definitions),
``InputError`` (a file or a flavor that cannot be read), ``ExtraSpecValidationError``,
``YAMLLimitError``, ``HeatFileError`` and ``ComponentError`` (Heat), ``ImageError`` (image
specs), ``PluginError`` (plugin labels), ``ApiError``, ``StoreError`` and ``PolicyFileError``
(the service), and the command line's ``InvalidInput`` and ``UnusableInput``.

Standard library only, and it imports nothing of onespec: every package, the definitions
included, may import it.
"""

from __future__ import annotations


class OnespecError(Exception):
    """An error onespec raises on purpose: what it was given -- its input, its definitions, a
    file, a remote, the service's configuration or state -- is refused, and the message says
    why. Never a bug: a failure onespec did not foresee stays the Python exception it is
    (``KeyError``, ``AttributeError``...), so that catching this never hides one.

    Each class also keeps the built-in base its callers already catch (an invalid extra spec
    is still a ``ValueError``, a missing plugin a ``LookupError``), so deriving from it
    changes no existing ``except``.
    """
