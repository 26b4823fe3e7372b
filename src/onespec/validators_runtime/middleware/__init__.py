"""WSGI filters that put onespec's checks in front of OpenStack services' APIs."""
