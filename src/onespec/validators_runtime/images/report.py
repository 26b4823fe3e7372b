"""What a validation did: every validator visited, its outcome, its commands, its time."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from onespec.validators_runtime.problems import Problem


class Outcome(enum.StrEnum):
    """How one validator ended."""

    PASSED = "passed"  # already as the spec wants
    RECONCILED = "reconciled"  # was not, and was changed to be
    FAILED = "failed"  # is not, and was not (or could not be) changed
    SKIPPED = "skipped"  # not applicable (no matching case) or not reached


@dataclass
class Step:
    """One validator visited: where it is in the spec and what happened.

    ``commands`` are the commands it ran, in order, as given to the remote (before any ``sudo``
    wrapping), with the run's private working directory written as ``<workdir>`` so that two
    runs of one spec give the same report.
    """

    path: str
    kind: str
    label: str
    reconcile: bool
    outcome: Outcome = Outcome.SKIPPED
    detail: str = ""
    commands: list[str] = field(default_factory=list)
    seconds: float = 0.0
    line: int | None = None
    parent: int | None = None
    depth: int = 0

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready mapping; ``timings=False`` leaves out the time taken."""
        data: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "label": self.label,
            "reconcile": self.reconcile,
            "outcome": str(self.outcome),
            "detail": self.detail,
            "commands": list(self.commands),
            "parent": self.parent,
        }
        if timings:
            data["seconds"] = round(self.seconds, 6)
        return data

    def line_text(self) -> str:
        """One line for people: outcome, path, kind and what it checked."""
        text = f"{self.outcome:<10} {self.path} {self.kind}"
        if self.label:
            text += f" {self.label}"
        if self.detail:
            text += f" -- {self.detail}"
        return text


@dataclass
class ValidationReport:
    """Everything one validation of one spec on one target did."""

    spec: str
    target: str
    distro: str
    reconcile: bool
    steps: list[Step] = field(default_factory=list)
    #: What is odd in the spec but does not stop it (each located by file, line and YAML
    #: path), in the one finding shape of every report.
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    outcome: Outcome = Outcome.PASSED
    #: Commands run outside any validator: reading os-release, removing the working directory.
    setup: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True unless the validation failed (reconciled and skipped steps are fine)."""
        return self.outcome is not Outcome.FAILED

    @property
    def failures(self) -> list[Step]:
        """The failed steps that made the validation fail: the concrete reasons.

        A failed step counts when every group it is in failed too (an alternative of an ``any``
        that passed through another one does not), and no step inside it failed (its group is
        not the reason, its child is).
        """

        def chain_failed(step: Step) -> bool:
            while step.parent is not None:
                step = self.steps[step.parent]
                if step.outcome is not Outcome.FAILED:
                    return False
            return True

        failed_parents = {
            s.parent for s in self.steps if s.outcome is Outcome.FAILED and s.parent is not None
        }
        return [
            step
            for index, step in enumerate(self.steps)
            if step.outcome is Outcome.FAILED and index not in failed_parents and chain_failed(step)
        ]

    @property
    def commands(self) -> list[str]:
        """Every command the validation ran: the setup's, then each step's in order."""
        return [*self.setup, *(command for step in self.steps for command in step.commands)]

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready mapping; ``timings=False`` gives the same dict for the same behaviour."""
        data: dict[str, Any] = {
            "spec": self.spec,
            "target": self.target,
            "distro": self.distro,
            "reconcile": self.reconcile,
            "outcome": str(self.outcome),
            "warnings": [warning.to_dict() for warning in self.warnings],
            "setup": list(self.setup),
            "steps": [step.to_dict(timings=timings) for step in self.steps],
        }
        if timings:
            data["seconds"] = round(self.seconds, 6)
        return data

    def summary(self) -> str:
        """One sentence: the verdict and the counts."""
        counts: dict[str, int] = {}
        for step in self.steps:
            counts[str(step.outcome)] = counts.get(str(step.outcome), 0) + 1
        parts = ", ".join(f"{counts.get(str(o), 0)} {o}" for o in Outcome)
        return (
            f"{self.spec} on {self.target} ({self.distro}): {self.outcome} "
            f"({len(self.steps)} validator{'' if len(self.steps) == 1 else 's'}: {parts}; "
            f"{len(self.commands)} command{'' if len(self.commands) == 1 else 's'}; "
            f"{self.seconds:.2f} s)."
        )
