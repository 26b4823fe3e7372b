"""``onespec import``: bootstrap an out-of-tree definitions package from another catalogue.

``metadefs.py`` reads Glance metadef files into definitions and the list of what could not be
carried over; ``package.py`` writes them as a package published in the
``onespec.extra_specs`` entry-point group; ``cli.py`` is the command.
"""
