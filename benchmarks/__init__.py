"""The benchmark suite (``make bench``): figures, each on its own line, with its target."""
