"""The errors of remote play's codes and sessions (docs/protocol.md, "Checks on receipt").

Each is an `errors.WavingHandsError` with a stable kebab-case `code` for the JSON boundary and a
message a player can act on.  Inputs the rules refuse are `errors.IllegalInput`, shared with the
engine.
"""

from __future__ import annotations

from ..errors import WavingHandsError


class CodeError(WavingHandsError):
    """Base of every error a turn code or a remote session operation reports (besides
    `errors.IllegalInput`, for inputs the rules refuse)."""

    code = "code-error"


class CorruptedCode(CodeError):
    """The text is not a code, or a character was changed or lost (base64 or checksum)."""

    code = "corrupted"


class UnsupportedVersion(CodeError):
    """The code was made by a newer (or unknown) version of the protocol."""

    code = "unsupported-version"


class MalformedCode(CodeError):
    """The checksum is right but the content is impossible: a bug or a hand-made code."""

    code = "malformed"


class NotThisGame(CodeError):
    """The code belongs to another game."""

    code = "not-this-game"


class OtherDuel(CodeError):
    """A code came over a live connection made for another duel (or for none): ignored."""

    code = "other-duel"


class OwnCode(CodeError):
    """The player pasted a code they made themselves."""

    code = "own-code"


class OutOfOrder(CodeError):
    """A code arrived before one that must come first."""

    code = "out-of-order"


class ConflictingCode(CodeError):
    """A different code for a step already applied: the opponent sealed that step twice."""

    code = "conflicting-code"


class RevealMismatch(CodeError):
    """A reveal that does not open the commitment made earlier."""

    code = "reveal-mismatch"


class Desync(CodeError):
    """Both sides computed different game states."""

    code = "desync"


class NotYourTurn(CodeError):
    """Input was given while the session waits for the opponent (or for nothing)."""

    code = "not-your-turn"


class BadSession(CodeError):
    """A stored session that cannot be read back."""

    code = "bad-session"

