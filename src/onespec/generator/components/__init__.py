"""Heat software components: the runtime vocabulary, the JSON Schema and the reference rST."""
