"""The HTTP API: plugin labels, body schemas, the generated module, and the service's reference."""
