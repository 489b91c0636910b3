"""The lock files pin every requirement within the ranges requirements*.txt give (or `make lock` was forgotten)."""

from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _requirements(path: Path) -> list[Requirement]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found += _requirements(path.parent / line[3:].strip())
        else:
            found.append(Requirement(line))
    return found


def _pins(path: Path) -> dict[str, list[Requirement]]:
    pins: dict[str, list[Requirement]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            requirement = Requirement(line)
            pins.setdefault(canonicalize_name(requirement.name), []).append(requirement)
    return pins


@pytest.mark.parametrize("source, lock", [("requirements.txt", "requirements.lock"),
                                          ("requirements-dev.txt", "requirements-dev.lock")])
def test_every_requirement_is_pinned_within_its_range(source, lock):
    pins = _pins(ROOT / lock)
    environment = default_environment()
    for requirement in _requirements(ROOT / source):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in {lock}: run `make lock`"
        chosen = [pin for pin in pins[name] if pin.marker is None or pin.marker.evaluate(environment)]
        assert len(chosen) == 1, f"{requirement.name}: {len(chosen)} pins apply to this machine in {lock}"
        (spec,) = chosen[0].specifier
        assert spec.operator == "==" and requirement.specifier.contains(spec.version), \
            f"{lock} pins {requirement.name} {spec.version}, outside {requirement.specifier}: run `make lock`"


def test_the_dev_lock_pins_the_runtime_as_the_runtime_lock_does():
    runtime, dev = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-dev.lock")
    for name, pins in runtime.items():
        assert [str(p) for p in dev.get(name, [])] == [str(p) for p in pins], name
