"""CareerNavigator (seed 000): the workflow package; its spec is in spec.py."""

from pipelines.career_navigator.spec import SPEC

__all__ = ["SPEC"]
