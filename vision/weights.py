"""Where the runtime finds the shipped ONNX models: the files it loads when no other is given.

An installed wheel carries them in this package's ``shipped/`` folder (`pyproject.toml` puts them there); a
checkout of the repository has them in its ``models/`` folder, where training exports them. The runtime looks
for its weights here and nowhere else, so that it never imports the training workbench (the `models`
package) to find a file.
"""

from __future__ import annotations

from pathlib import Path

DETECTOR = "mcr-tiles.onnx"
FACE_READER = "mcr-faces.onnx"
BOX_REFINER = "mcr-boxes.onnx"
SECOND_LOOK_FACES: dict[str, str] = {"flowers": "flowers and seasons", "characters": "characters 1m-9m"}
"""The second-look readers (`vision.faces.FaceReader.second_look`) by name, with the faces each reads again."""
SECOND_LOOKS: dict[str, str] = {name: f"mcr-{name}.onnx" for name in SECOND_LOOK_FACES}
"""The shipped file of each second-look reader."""
SHIPPED: tuple[str, ...] = (DETECTOR, FACE_READER, BOX_REFINER, *SECOND_LOOKS.values())
"""Every ONNX file the runtime loads by default: what the wheel carries."""

INSTALLED = Path(__file__).resolve().parent / "shipped"
REPOSITORY = Path(__file__).resolve().parents[1]
"""The repository's root when the runtime runs from a checkout (beside an installed wheel: its site-packages)."""
CHECKOUT = REPOSITORY / "models"


def models_dir() -> Path:
    """The folder the shipped models lie in: the wheel's, else the checkout's."""
    return INSTALLED if INSTALLED.is_dir() else CHECKOUT


def shipped(name: str) -> Path:
    """The path of a shipped model file (it may be absent, in a checkout that has not exported it)."""
    return models_dir() / name
