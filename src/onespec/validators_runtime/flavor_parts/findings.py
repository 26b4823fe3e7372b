"""A finding about a whole flavor (or a flavor with its image): a :class:`Problem` that also
says which keys and properties are involved, which exception Nova would raise and when."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from onespec.validators_runtime.problems import Problem


@dataclass(frozen=True)
class FlavorFinding(Problem):
    """``keys`` are the extra specs, image properties and flavor fields involved;
    ``nova_exception`` the class Nova raises (``nova.exception.<name>``); ``phase`` when:
    ``api`` (server create answers HTTP 400), ``scheduler`` (the instance goes to ERROR while it
    is scheduled) or ``spawn`` (on the compute host, after reschedules)."""

    keys: tuple[str, ...] = ()
    nova_exception: str | None = None
    phase: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "keys": list(self.keys),
            "nova_exception": self.nova_exception,
            "phase": self.phase,
        }
