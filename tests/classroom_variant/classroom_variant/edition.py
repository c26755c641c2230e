"""The classroom variant: USA on its own map with a steeper route table, a block and a secret objective."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ttr_lab.editions.usa import USA

from .marks import ClassroomMarks
from .rules import BlockRule, SecretObjective

__all__ = ["Classroom", "STEEP_ROUTE_POINTS"]

#: points per route length: long routes pay more than in USA (1, 2, 4, 7, 10, 15)
STEEP_ROUTE_POINTS: Mapping[int, int] = MappingProxyType({1: 1, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21})


class Classroom(ClassroomMarks, BlockRule, SecretObjective, USA):
    """USA with a steeper route table, ``block N`` (rule CL1) and a secret objective city (rule CL2).

    Registered by :func:`classroom_variant.register` (or found through the
    ``ttr_lab.editions`` entry point of this package, once ttr_lab reads it).
    """

    name: ClassVar[str] = "classroom"
    map_id: ClassVar[str] = "usa"
    aliases: ClassVar[Mapping[str, Mapping[str, Any]]] = {"usa_classroom": {}}

    @property
    def title(self) -> str:  # type: ignore[override]
        return "USA, classroom variant"

    def _setup_parameters(self) -> None:
        super()._setup_parameters()
        self.route_points = STEEP_ROUTE_POINTS
