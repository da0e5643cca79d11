"""The fusion report as typed values (docs/FusionReport.md).

``block-report`` (and ``compile()``) print one JSON object per block
program; ``Report.from_json`` reads one. Every figure is a field; the JSON
object itself stays reachable as ``Report.raw`` and through ``report[key]``,
so code that read the reports as dicts reads them unchanged.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Tuple


@dataclass(frozen=True)
class Intermediate:
    """An array one kernel writes and another reads: a trip through global
    memory that fusion did not remove."""

    shape: Tuple[int, ...]
    element_type: str
    bytes: int
    readers: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Intermediate":
        return cls(tuple(obj["shape"]), obj["element_type"], obj["bytes"],
                   obj["readers"])


@dataclass(frozen=True)
class KernelReport:
    """The figures of one kernel (one top-level map)."""

    grid: Tuple[str, ...]      # the axes its instances are spread over
    instances: int
    global_bytes_read: int
    global_bytes_written: int
    flops: int
    local_bytes_peak: int
    register_bytes_peak: int
    shared_bytes_peak: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "KernelReport":
        return cls(tuple(obj["grid"]), obj["instances"],
                   obj["global_bytes_read"], obj["global_bytes_written"],
                   obj["flops"], obj["local_bytes_peak"],
                   obj["register_bytes_peak"], obj["shared_bytes_peak"])


@dataclass(frozen=True)
class Report:
    """The fusion report of one block program."""

    program: str
    block_sizes: Dict[str, int]
    kernels: int
    buffered_edges: int
    global_bytes: int
    flops: int
    local_bytes_peak: int
    register_bytes_peak: int
    shared_bytes_peak: int
    intermediates: Tuple[Intermediate, ...]
    per_kernel: Tuple[KernelReport, ...]
    raw: Dict[str, Any] = dataclasses.field(repr=False, compare=False)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Report":
        return cls(
            program=obj["program"],
            block_sizes=dict(obj["block_sizes"]),
            kernels=obj["kernels"],
            buffered_edges=obj["buffered_edges"],
            global_bytes=obj["global_bytes"],
            flops=obj["flops"],
            local_bytes_peak=obj["local_bytes_peak"],
            register_bytes_peak=obj["register_bytes_peak"],
            shared_bytes_peak=obj["shared_bytes_peak"],
            intermediates=tuple(Intermediate.from_json(i)
                                for i in obj["intermediates"]),
            per_kernel=tuple(KernelReport.from_json(k)
                             for k in obj["per_kernel"]),
            raw=dict(obj))

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]


def parse_reports(text: str) -> List[Report]:
    """The reports in ``block-report``'s output: JSON objects one after the
    other, one per block program."""
    decoder, reports, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        obj, at = decoder.raw_decode(text, at)
        reports.append(Report.from_json(obj))
    return reports
