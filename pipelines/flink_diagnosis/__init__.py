"""Flink job exception diagnosis (seed 001): the workflow package; its spec is in spec.py."""

from pipelines.flink_diagnosis.spec import SPEC

__all__ = ["SPEC"]
