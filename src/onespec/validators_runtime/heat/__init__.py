"""Heat: software components that act on lifecycle actions, and template capabilities."""
