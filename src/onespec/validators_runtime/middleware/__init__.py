"""WSGI filters that put onespec's checks in front of OpenStack APIs, in their paste pipelines.

* :mod:`~onespec.validators_runtime.middleware.servers` (paste ``egg:onespec#onespec_servers``)
  guards nova-api: servers and flavors Nova would refuse later are refused at the API;
* :mod:`~onespec.validators_runtime.middleware.images` (paste ``egg:onespec#onespec_images``)
  guards glance-api: image properties Nova cannot use are refused when they are written;
* :mod:`~onespec.validators_runtime.middleware.common` holds what a filter needs (options,
  bounded bodies, answers, failing open).

Each filter runs inside the service's own virtual environment, so it imports nothing but the
standard library and the onespec runtime. This ``__init__`` imports nothing, so that loading one
filter loads no other.
"""
