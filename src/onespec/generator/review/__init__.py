"""Reviewing a catalogue against code and against its own history: ``onespec audit`` and ``diff``.

Both read Python statically (``ast``; nothing reviewed is ever imported), so they run on any
checkout of any service, with none of its dependencies installed.
"""
