"""The ``names:`` block of an Ultralytics data file: our 43 classes in tile-vocabulary order."""

from scoring.tiles import CLASS_NAMES


def yaml_names() -> str:
    """``names:`` with one ``  <id>: '<code>'`` line per class, newline-terminated."""
    return "names:\n" + "".join(f"  {i}: '{code}'\n" for i, code in enumerate(CLASS_NAMES))
