"""What `models.training.device pack` carries to a lent GPU machine: one copy of each real photo, within the budget
the working tree leaves (the run there is smoke-tested in tests/models/test_training_smoke.py)."""

import sys
import time
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from models.training.device import (
    CARRY_NEEDS,
    QUALITIES,
    RESERVE,
    TRAVELS,
    carry_budget,
    deadline_callback,
    hidden,
    one_per_source,
    pack_photos,
    results_csv,
)


def photos(folder: Path, names: list[str]) -> list[Path]:
    """Noisy 320-px photos (noise compresses badly: quality matters to their size) and their labels."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    rng = np.random.default_rng(0)
    for name in names:
        cv2.imwrite(str(folder / "images" / f"{name}.jpg"), rng.integers(0, 255, (320, 320, 3), np.uint8))
        (folder / "labels" / f"{name}.txt").write_text("4 0.5 0.5 0.1 0.2\n")
    return sorted((folder / "images").iterdir())


def test_one_copy_of_each_source_photo(tmp_path: Path) -> None:
    names = ["hand_001_jpg.rf.b", "hand_001_jpg.rf.a", "IMG_7_jpg.rf.c", "hand_002_jpg.rf.z"]
    chosen = one_per_source(photos(tmp_path, names))
    assert sorted(p.stem for p in chosen) == ["IMG_7_jpg.rf.c", "hand_001_jpg.rf.a", "hand_002_jpg.rf.z"]


def test_photos_are_packed_within_the_budget_lowering_quality_first(tmp_path: Path) -> None:
    images = photos(tmp_path / "src", [f"p{i}_jpg.rf.x" for i in range(6)])
    def size(quality: int) -> int:
        return sum(len(cv2.imencode(".webp", cv2.imread(str(p)), [cv2.IMWRITE_WEBP_QUALITY, quality])[1])
                   for p in images)

    best, lowest = size(QUALITIES[0]), size(QUALITIES[-1])
    kept, quality = pack_photos(images, tmp_path / "src" / "labels", tmp_path / "roomy", best + 1000)
    assert (kept, quality) == (6, QUALITIES[0])
    kept, quality = pack_photos(images, tmp_path / "src" / "labels", tmp_path / "tight", lowest + 1000)
    assert kept == 6 and QUALITIES[-1] <= quality < QUALITIES[0]  # all of them, at a lower quality
    kept, quality = pack_photos(images, tmp_path / "src" / "labels", tmp_path / "tiny", lowest // 2)
    assert 0 < kept < 6 and quality == QUALITIES[-1]  # at the lowest quality, as many as fit
    packed = list((tmp_path / "tiny").rglob("*.*"))
    assert sum(p.stat().st_size for p in packed) <= lowest // 2
    assert sorted(p.suffix for p in packed) == [".txt"] * kept + [".webp"] * kept


def test_the_budget_is_what_the_working_tree_leaves() -> None:
    budget = carry_budget()
    assert 0 < budget < TRAVELS - 10_000_000  # the repository itself takes tens of MB (its models)


def test_the_working_tree_leaves_room_for_every_real_photo() -> None:
    """Each weights file committed shrinks what the GPU run can carry: with a few MB left it carries a tenth of
    the real sources, at WebP 50. Superseded weights belong in git history, not the tree."""
    assert carry_budget() >= CARRY_NEEDS, "the working tree is too big for the GPU run's photos (models.training.device)"


def test_training_is_cut_to_end_by_the_deadline_with_the_reserve_to_spare() -> None:
    trainer = SimpleNamespace(args=SimpleNamespace(time=0.1))
    deadline_callback(time.time() + 600)(trainer)
    assert abs(trainer.args.time * 3600 - (600 - RESERVE)) < 2
    deadline_callback(time.time() + 10)(trainer)  # rendering overran: still a minute of training
    assert trainer.args.time * 3600 == 60


def test_the_results_so_far_are_read_without_polars(tmp_path: Path) -> None:
    """What Ultralytics puts in each checkpoint, read where polars is missing (the lent machine)."""
    csv_file = tmp_path / "results.csv"
    trainer = SimpleNamespace(csv=csv_file)
    assert results_csv(trainer) == {}
    csv_file.write_text("epoch,train/box_loss, lr/pg0\n1,1.25,0.001\n2,1.0,0.0005\n")
    with hidden(("polars",)):
        assert results_csv(trainer) == {"epoch": [1.0, 2.0], "train/box_loss": [1.25, 1.0], "lr/pg0": [0.001, 0.0005]}
    for broken in ("", "epoch,train/box_loss\n1,\n", "epoch,train/box_loss\n1\n"):  # empty, a blank, a field short
        csv_file.write_text(broken)
        assert results_csv(trainer) == {}  # as Ultralytics' own reader gives, not a run stopped at its checkpoint


def test_hidden_modules_fail_to_import_and_come_back_after() -> None:
    with hidden(("json", "no_such_module_here")), pytest.raises(ImportError):
        import json  # noqa: F401
    assert sys.modules["json"].dumps([1]) == "[1]" and "no_such_module_here" not in sys.modules
