"""What a ruleset is: a variant of the game (its spell table, its options, its rule hooks) and the
per-game `Ruleset` value that names one and carries the options chosen for the game.

A variant is a small object found by name (python-chess's `find_variant`): the standard rules
live in `standard.py`; another ruleset is one more module that builds a `Variant` (or a subclass
overriding its hooks) and registers it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..errors import WavingHandsError
from ..spells import SpellTable


class RulesetError(WavingHandsError):
    """A ruleset object with an unknown or ill-typed option."""

    code = "bad-ruleset"


class UnknownRuleset(WavingHandsError):
    """A ruleset name that names no registered ruleset."""

    code = "unknown-ruleset"


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One option a ruleset offers when a game starts (a yes/no house rule)."""

    key: str
    label: str
    description: str
    default: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form, for the page's start screen."""
        return {"key": self.key, "label": self.label, "description": self.description,
                "default": self.default}


@dataclass(frozen=True, eq=False)
class Variant:
    """A ruleset's definition: its name and text, the spell table it plays with, the options it
    offers, and its rule hooks (methods a variant with other rules overrides)."""

    name: str
    title: str
    description: str
    table: SpellTable
    options: tuple[RuleOption, ...] = ()
    wizard_death: int = 15  # "dies when fifteen or more points of damage are done"
    # The spell reference's texts: package data files, each `{"descriptions": {key: text}}`;
    # a later file's text for a key replaces an earlier one's.
    texts: tuple[str, ...] = ("data/spell_text.json",)

    def may_withhold(self, ruleset: Ruleset) -> bool:
        """Hook: whether a completed spell may go uncast in this game."""
        return ruleset.withhold

    def paralysed_gesture(self, gesture: str) -> str:
        """Hook: the gesture a hand paralysed while making `gesture` is frozen into."""
        return PARALYSED_FORM.get(gesture, gesture)

    def damage_after(self, damage: int, incoming: int, cured: int, monster: bool) -> int:
        """Hook: a being's damage after a turn that brought it `incoming` damage and `cured`
        points of cure ("if a wizard was at ten points of damage and was hit simultaneously by a
        cure light wounds and a lightning bolt he would finish that turn on fourteen points")."""
        return max(0, damage + incoming - cured)

    def unordered_target(self, last_target: str, enemy: str) -> str:
        """Hook: whom a monster attacks when its controller names no target this turn, given
        whom it attacked last (`last_target`, "" if nobody yet): the controller's enemy."""
        return enemy

    def may_aim(self, caster: str, target: str, blind: frozenset[str],
                invisible: frozenset[str]) -> bool:
        """Hook: whether wizard `caster` may aim a spell or a stab at `target` this turn, given
        the wizards blind and invisible at its start (the standard rules: at anyone; spells at
        the invisible miss, "Wizards can still stab and direct spells at him")."""
        return True

    def may_stab_self(self, caster: str, blind: frozenset[str]) -> bool:
        """Hook: whether wizard `caster` may stab himself this turn ("wizards are not allowed
        to stab themselves")."""
        return False

    def forfeit_under(self) -> frozenset[str]:
        """Hook: the lasting effects (their keys) whose permanent victim may forfeit the duel
        in his orders; the standard rules: none (a surrender is made with the hands)."""
        return frozenset()

    def time_stop_ignores_effects(self) -> bool:
        """Hook: whether a wizard's time-stopped turn ignores his lasting effects on his orders
        and gestures (amnesia, paralysis, charm person, fear, confusion, maladroitness,
        haste); the standard rules: they hold in it as in any turn."""
        return False

    def time_stop_strikes_now(self) -> bool:
        """Hook: whether a monster time-stopped attacks again at once, in the same turn and
        ignoring shields, instead of taking an extra turn; the standard rules: "The subject of
        this spell immediately takes an extra turn"."""
        return False

    def hasted_turns(self) -> bool:
        """Hook: whether haste gives a separate hasted turn after each normal turn it covers
        (only the hastened wizards act in it, monsters do not attack, effects do not count
        down) instead of a second gesture set in that turn; the standard rules: "the subject
        of this spell makes an extra set of gestures"."""
        return False

    def hands_in_orders(self) -> bool:
        """Hook: whether the caster of a paralysis or charm person chooses the subject's hand in
        his next turn's orders (the subject learns it at the reveal); the standard rules: "after
        gestures have been revealed, the caster selects one of the wizard's hands", "The subject
        is told which of his hands will be controlled at the time the spell hits"."""
        return False

    def ordered_bank(self) -> bool:
        """Hook: whether delayed effect banks a spell only when the orders say so (`bank`),
        keeping the target it was cast at, a later bank replacing the earlier; the standard
        rules: it takes "The next spell he completes", "only one spell banked at any one
        time", aimed when released."""
        return False

    def ordered_permanency(self) -> bool:
        """Hook: whether permanency extends a spell only when the orders say so (`permanent`);
        the standard rules: "The next spell he completes ... will have its effect made
        permanent"."""
        return False

    def merged_elemental(self, count: int) -> int:
        """Hook: which of `count` elementals of one kind (oldest first) is the one they join
        into: "two of the same type will join together to form a single elemental"."""
        return 0

    def descriptions(self) -> dict[str, str]:
        """Each spell of the table's description for the reference, in table order; raises
        KeyError naming a row no text file describes."""
        # Here, not at import: the page's boot reads no text.  pkgutil, not importlib.resources:
        # the package's own loader reads the file (in the page, from the Python library) without
        # zipfile, pathlib and tempfile, which the page's start-up leaves out (docs/build.md).
        import pkgutil

        merged: dict[str, str] = {}
        for name in self.texts:
            data = pkgutil.get_data("wavinghands", name)
            if data is None:
                raise FileNotFoundError(f"wavinghands/{name}")
            merged.update(json.loads(data.decode("utf-8"))["descriptions"])
        missing = [key for key in self.table if key not in merged]
        if missing:
            raise KeyError(f"no description of {', '.join(missing)} in {', '.join(self.texts)}")
        return {key: merged[key] for key in self.table}

    def to_json(self) -> dict[str, Any]:
        """What the page shows to choose the rules: name, title, description, options."""
        return {"name": self.name, "title": self.title, "description": self.description,
                "options": [o.to_json() for o in self.options]}


# "if the hand being paralyzed is performing a C, S or W it is instead paralyzed into F, D or P
# respectively, otherwise it will remain in the position written down"
PARALYSED_FORM: Final = {"C": "F", "S": "D", "W": "P"}

VARIANTS: Final[dict[str, Variant]] = {}
STANDARD_NAME: Final = "standard"
# The names written before rulesets existed (the page's withhold games, the engine's own house
# rule value, playout's random duels): each is a label of the standard rules.  Any other name
# that no ruleset has comes from a newer engine, whose rules this one cannot play.
PRE_SEAM_LABELS: Final[frozenset[str]] = frozenset({"house", "house-withhold", "random"})


def register(variant: Variant) -> Variant:
    """Make a variant findable by its name."""
    VARIANTS[variant.name] = variant
    return variant


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules one game is played under: the ruleset `name` with this game's options.

    JSON form `{"name": ..., "withhold": ...}` (records, saved games, invitations).  Before
    rulesets existed `name` was free text and every game used the standard rules, so a name that
    no ruleset has reads as a label of the standard rules and is kept as written.
    `withhold`: the house rule of 003's commentator, "a wizard can choose to not cast a spell,
    even when he has completed the gestures".  Off in the standard game (000: "the spell must
    be cast").
    """

    name: str = STANDARD_NAME
    withhold: bool = False

    @property
    def variant(self) -> Variant:
        """The ruleset's definition (a pre-ruleset label: the standard rules)."""
        return VARIANTS.get(self.name) or VARIANTS[STANDARD_NAME]

    @property
    def table(self) -> SpellTable:
        """The spells this game is played with."""
        return self.variant.table

    @property
    def may_withhold(self) -> bool:
        """Whether a completed spell may go uncast (the withhold option, through the hook)."""
        return self.variant.may_withhold(self)

    @property
    def known(self) -> bool:
        """Whether this engine plays these rules: a registered ruleset, or a label written
        before rulesets existed (the standard rules)."""
        return self.name in VARIANTS or self.name in PRE_SEAM_LABELS

    def describe(self) -> dict[str, Any]:
        """What a player is told of a game's rules before joining it: the ruleset's name,
        title and description and the labels of the options this game turns on."""
        variant = self.variant
        on = [{"key": o.key, "label": o.label} for o in variant.options
              if getattr(self, o.key, False) is True]
        return {"name": variant.name, "title": variant.title,
                "description": variant.description, "options": on}

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"name": self.name, "withhold": self.withhold}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Ruleset:
        """Parse a ruleset object; unknown keys are an error so typos do not pass silently."""
        if not isinstance(d, dict):
            raise RulesetError("a ruleset is a JSON object")
        known = {"name", "withhold"}
        unknown = set(d) - known
        if unknown:
            raise RulesetError(f"unknown ruleset option(s): {', '.join(sorted(unknown))}")
        withhold = d.get("withhold", False)
        if not isinstance(withhold, bool):
            raise RulesetError("ruleset option 'withhold' must be true or false")
        name = d.get("name", "house" if withhold else STANDARD_NAME)
        if not isinstance(name, str):
            raise RulesetError("a ruleset's name is a string")
        return Ruleset(name, withhold)


def check_known(ruleset: Ruleset, carrier: str) -> Ruleset:
    """`ruleset` itself if this engine plays it (see `Ruleset.known`); raises UnknownRuleset
    saying what carried the name (`carrier`, e.g. "this invitation's duel") and what to do."""
    if ruleset.known:
        return ruleset
    known = ", ".join(f"{v.title} ({v.name})" for v in VARIANTS.values())
    raise UnknownRuleset(f"{carrier} is played under the rules {ruleset.name!r}, which this "
                         f"page does not know (it knows {known}): it was made by a newer "
                         "version of the page. Reload the page to get its newest version")


def find_ruleset(name: str) -> Ruleset:
    """The registered ruleset `name` with its options at their defaults; raises
    UnknownRuleset."""
    variant = VARIANTS.get(name)
    if variant is None:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownRuleset(f"there is no ruleset called {name!r} (there is {known})")
    defaults = {o.key: o.default for o in variant.options}
    return Ruleset(variant.name, bool(defaults.get("withhold", False)))
