"""A plugin that cannot be imported."""

raise ImportError("acme_broken needs libacme, which is not installed")
