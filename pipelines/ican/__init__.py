"""iCan career guidance (seed 003): the workflow package; its spec is in spec.py."""

from pipelines.ican.spec import SPEC

__all__ = ["SPEC"]
