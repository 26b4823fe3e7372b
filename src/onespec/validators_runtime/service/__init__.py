"""The reference WSGI service: the plugin admin API and the flavor extra-specs API.

``create_app(config)`` (in :mod:`onespec.validators_runtime.service.app`) builds the Flask
application; ``onespec serve`` runs it under waitress. See ``doc/source/guides/api.rst``.
"""
