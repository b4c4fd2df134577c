"""Bounded memos for pure functions of frozen state, so a search that asks the same question of
one state many times (the opponent plays every joint move on one `Game`) pays for it once.

Two kinds, both bounded (a full memo is emptied and starts again, which changes no answer):
`ByIdentity` keys on the identity of a frozen object (a `Game` is never hashed: that would walk
its whole log) and keeps the object itself beside the answer, so its id cannot be reused for
another object while the entry lives; `Bounded` is a plain dict for hashable keys.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A dict of at most `size` entries, emptied when full (answers of a pure function)."""

    __slots__ = ("_data", "_size")

    def __init__(self, size: int) -> None:
        self._data: dict[K, V] = {}
        self._size = size

    def get(self, key: K) -> V | None:
        """The stored answer for `key`, or None."""
        return self._data.get(key)

    def put(self, key: K, value: V) -> V:
        """Store and return `value`."""
        if len(self._data) >= self._size:
            self._data.clear()
        self._data[key] = value
        return value

    def __len__(self) -> int:
        return len(self._data)


class ByIdentity(Generic[V]):
    """Answers about frozen objects, keyed on the object's identity and a hashable extra key;
    the object is kept beside its answer, so a stored id always means the same object."""

    __slots__ = ("_data", "_size")

    def __init__(self, size: int) -> None:
        self._data: dict[tuple[int, Hashable], tuple[object, V]] = {}
        self._size = size

    def get(self, obj: object, extra: Hashable = None) -> V | None:
        """The stored answer for (`obj`, `extra`), or None."""
        hit = self._data.get((id(obj), extra))
        if hit is not None and hit[0] is obj:
            return hit[1]
        return None

    def put(self, obj: object, extra: Hashable, value: V) -> V:
        """Store and return `value` for (`obj`, `extra`)."""
        if len(self._data) >= self._size:
            self._data.clear()
        self._data[(id(obj), extra)] = (obj, value)
        return value

    def __len__(self) -> int:
        return len(self._data)
