"""Where the project's shipped files are: the repository root and its assets folder."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ASSETS_DIR = PROJECT_ROOT / "assets"


def input_path(text: str) -> Path:
    """A file an input names: as given, or relative to the project when it is not found there (scenario files
    name the shipped samples that way)."""
    path = Path(text).expanduser()
    return path if path.is_absolute() or path.exists() else PROJECT_ROOT / path
