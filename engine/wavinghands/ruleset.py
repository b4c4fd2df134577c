"""Rule variants as data, chosen per game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import WavingHandsError


class RulesetError(WavingHandsError):
    """A ruleset object with an unknown or ill-typed option."""

    code = "bad-ruleset"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a game is played under.

    `withhold`: the house rule of 003's commentator, "a wizard can choose to not cast a spell,
    even when he has completed the gestures".  Off in the standard game (000: "the spell must
    be cast").
    """

    name: str = "standard"
    withhold: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"name": self.name, "withhold": self.withhold}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Ruleset:
        """Parse a ruleset object; unknown keys are an error so typos do not pass silently."""
        known = {"name", "withhold"}
        unknown = set(d) - known
        if unknown:
            raise RulesetError(f"unknown ruleset option(s): {', '.join(sorted(unknown))}")
        withhold = d.get("withhold", False)
        if not isinstance(withhold, bool):
            raise RulesetError("ruleset option 'withhold' must be true or false")
        name = d.get("name", "house" if withhold else "standard")
        return Ruleset(str(name), withhold)


STANDARD = Ruleset()
HOUSE_WITHHOLD = Ruleset("house-withhold", True)
