"""A facade's method that hands the call to the part that does the work.

A facade (:class:`~crosstable.service.Service`, the accounts, a series) is composed of
parts, each an object of its own; it shows their use cases as its own methods, with
their exact signatures, through :func:`forward`::

    class Service:
        create_tournament = forward("registration", Registration.create_tournament)

        def __init__(self, ...):
            self.registration = Registration(frame)

``service.create_tournament(...)`` then calls ``service.registration.create_tournament(...)``;
the type checker sees the part method's parameters and answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")


class Forward(Generic[P, R]):
    """The descriptor :func:`forward` makes: read on an instance, the part's bound method."""

    def __init__(self, part: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.name:
            raise TypeError(f"{owner.__name__}.{name} forwards to a method named {self.name}")

    @overload
    def __get__(self, instance: None, owner: type) -> Forward[P, R]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> Callable[P, R]: ...

    def __get__(self, instance: object | None, owner: type) -> Forward[P, R] | Callable[P, R]:
        if instance is None:
            return self
        bound: Callable[P, R] = getattr(getattr(instance, self.part), self.name)
        return bound


def forward(part: str, method: Callable[Concatenate[Any, P], R]) -> Forward[P, R]:
    """The facade's method ``method.__name__``, done by its attribute ``part``."""
    return Forward(part, method)
