"""The service's routes, one blueprint per resource: the root, plugin labels, flavor extra specs."""
