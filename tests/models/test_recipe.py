"""The recorded recipe and data split: no flips, the held-out list follows its rule, the data mix file."""

import json
from pathlib import Path

import pytest

from models import read_recipe
from models.real_data import is_held_out, source_name
from models.train import RECIPE, SHIPPED, data_yaml_for, stage_weights

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-v4" / "train" / "images"


def recipe() -> dict:
    return json.loads(RECIPE.read_text())


def test_source_name_groups_augmented_copies() -> None:
    assert source_name(Path("hand_012_jpg.rf.42b68f52dfbe55d44548d9dff7d354ed.jpg")) == "hand_012_jpg"


def test_held_out_list_follows_the_rule() -> None:
    listed = [line for line in (ROOT / "models" / "holdout.txt").read_text().splitlines() if not line.startswith("#")]
    assert listed and all(is_held_out(s) for s in listed)
    assert any(s.startswith("hand_") for s in listed)
    if not REAL.is_dir():
        pytest.skip(f"real photos not found at {REAL}: only the listed names were checked")
    sources = {source_name(p) for p in REAL.iterdir()}
    assert sorted(s for s in sources if is_held_out(s)) == listed
    assert 0.07 < len(listed) / len(sources) < 0.13


def test_real_only_recipe_uses_the_real_data_file(tmp_path: Path) -> None:
    plan = recipe() | {"data": {"real": {}, "synthetic": None}}
    assert data_yaml_for(plan, tmp_path) == tmp_path / "real" / "data.yaml"


def test_synthetic_mix_lists_both_training_folders_and_validates_on_real(tmp_path: Path) -> None:
    synth = tmp_path / "synth"
    plan = recipe() | {"data": {"real": {}, "synthetic": {"folder": str(synth), "command": "mcr synth --out x"}}}
    with pytest.raises(SystemExit, match="mcr synth --out x"):
        data_yaml_for(plan, tmp_path)
    (synth / "images").mkdir(parents=True)
    text = data_yaml_for(plan, tmp_path).read_text()
    assert f"  - {(tmp_path / 'real' / 'images' / 'train').resolve()}\n  - {(synth / 'images').resolve()}\n" in text
    assert f"val: {(tmp_path / 'real' / 'images' / 'val').resolve()}\n" in text
    assert "  42: 'back'\n" in text
    plan["data"]["real"]["repeat"] = 3  # the real photos weighed three times: listed three times
    text = data_yaml_for(plan, tmp_path).read_text()
    assert text.count(f"  - {(tmp_path / 'real' / 'images' / 'train').resolve()}\n") == 3
    assert text.count(f"  - {(synth / 'images').resolve()}\n") == 1


def test_face_reader_names_the_data_folder_it_lacks_and_how_to_build_it(tmp_path: Path) -> None:
    from models import faces

    plan = json.loads(faces.RECIPE.read_text())
    plan["data"] = {"train": [str(tmp_path / "synth-x")], "val": [str(tmp_path)], "note": "mcr synth --out synth-x"}
    with pytest.raises(SystemExit, match=r"synth-x: build them first \(mcr synth --out synth-x\)"):
        faces.train(plan, tmp_path / "work", fresh=True)


def test_the_shipped_stage_continues_committed_weights_and_never_flips() -> None:
    shipped = json.loads(SHIPPED.read_text())
    assert shipped["augmentation"]["fliplr"] == 0.0 and shipped["augmentation"]["flipud"] == 0.0
    assert stage_weights(shipped) == ROOT / "models" / "mcr-tiles-gpu1.pt"  # in git: a clean checkout has it
    assert stage_weights(recipe()) is None  # the first stage starts from the riichi model
    with pytest.raises(SystemExit, match="missing.pt: the weights recipe x continues are missing"):
        stage_weights({"name": "x", "init": {"from": "somewhere", "weights": "models/missing.pt"}})


@pytest.mark.parametrize("path", sorted((ROOT / "models").glob("recipe*.json")), ids=lambda p: p.name)
def test_every_recorded_recipe_reads_as_its_kind_and_never_flips(path: Path) -> None:
    kind = "detector" if "architecture" in json.loads(path.read_text()) else "reader"  # readers never flip
    read_recipe(path, kind)  # a detector recipe that would flip is refused (below)


@pytest.mark.parametrize(("text", "args", "message"), [
    ("{ not json", [], "not JSON (Expecting property name enclosed in double quotes at line 1, column 3)"),
    ("[1, 2]", [], "a recipe is a JSON object, not list"),
    ("{}", [], "not a detector recipe: it lacks name, version, data, augmentation, torch_threads"),
    ('{"name": "x", "version": "1", "augmentation": {}, "torch_threads": 2, "data": {"real": {}}}', ["--faces"],
     "not a reader recipe: it lacks data.train, data.val"),
    ('{"name": "x", "version": "1", "augmentation": {}, "torch_threads": 2, "data": []}', [],
     "not a detector recipe: it lacks data (an object)"),
    ('{"name": "x", "version": "1", "augmentation": {"flipud": 0.0}, "torch_threads": 2, "data": {"real": {}}}', [],
     ("the detector would train on mirrored faces, which are no tile's: set augmentation fliplr and flipud to 0.0 "
      "(now {'fliplr': None, 'flipud': 0.0})")),
])
def test_mcr_train_refuses_a_malformed_recipe_before_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, args: list[str], message: str) -> None:
    from api.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["train", "--recipe", str(bad), *args]) == 2  # whatever the interpreter: checked before its probe
    assert f"{bad}: {message}" in capsys.readouterr().err


def test_mcr_train_names_a_recipe_file_it_cannot_find(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    assert main(["train", "--recipe", str(tmp_path / "nope.json")]) == 2
    assert "nope.json: no such recipe file" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "codes"), [("flowers", [f"{i}f" for i in range(1, 9)]),
                                            ("characters", [f"{i}m" for i in range(1, 10)])])
def test_each_second_look_is_recorded_and_shipped_with_its_classes(name: str, codes: list[str]) -> None:
    from models import SECOND_LOOK_RECIPES, faces
    from vision.faces import SECOND_LOOKS, FaceReader, default_face_model_path

    plan = json.loads(SECOND_LOOK_RECIPES[name].read_text())
    assert faces.reader_classes(plan) == codes
    assert plan["size"] > json.loads(faces.RECIPE.read_text())["size"]  # a closer look than the face reader's
    assert (ROOT / plan["init"]).is_file()  # it starts from committed reader weights
    assert f"{plan['model']}.onnx" == SECOND_LOOKS[name]
    shipped = FaceReader(default_face_model_path(SECOND_LOOKS[name]))
    assert list(shipped.classes) == faces.reader_classes(plan) and shipped.size == plan["size"]
    assert shipped.version == plan["version"]


@pytest.mark.parametrize("name", ["mcr-faces.onnx", "mcr-flowers.onnx", "mcr-characters.onnx", "mcr-boxes.onnx"])
def test_the_shipped_readers_are_int8(name: str) -> None:
    """`models.faces.export` quantizes a reader (3x faster on CPU, the same faces read: see `quantize`), and
    `models.boxes.export` the box refiner."""
    import onnxruntime

    from vision.faces import default_face_model_path

    path = default_face_model_path(name)
    if not path.is_file():
        pytest.skip(f"no shipped {name}")
    meta = onnxruntime.InferenceSession(str(path)).get_modelmeta().custom_metadata_map
    assert meta.get("quantized", "").startswith("int8"), meta.get("quantized")


def test_a_recipe_names_its_classes_by_tile_code() -> None:
    from models import faces

    with pytest.raises(SystemExit, match="recipe classes 9f, x: not tile codes"):
        faces.reader_classes({"classes": ["1f", "9f", "x"]})


def test_mcr_train_trains_one_reader_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    with pytest.raises(SystemExit):
        main(["train", "--faces", "--flowers"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "--flowers", "--characters"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_the_shipped_face_reader_is_the_recipes_and_continues_committed_weights() -> None:
    """`models/recipe-faces.json` records the reader shipped as `models/mcr-faces.onnx`: `mcr train --faces`
    reproduces it from a clean checkout (its ``init`` committed) plus ../shared and the recorded `mcr synth` runs."""
    from models import faces
    from vision.faces import FaceReader, default_face_model_path

    plan = json.loads(faces.RECIPE.read_text())
    assert (ROOT / plan["init"]).is_file()
    shipped = FaceReader(default_face_model_path())
    assert shipped.version == plan["version"] and list(shipped.classes) == faces.reader_classes(plan)
    assert shipped.size == plan["size"]


def test_the_shipped_box_refiner_is_the_recipes_and_continues_committed_weights() -> None:
    """`models/recipe-boxes.json` records the refiner shipped as `models/mcr-boxes.onnx`: `mcr train --boxes`
    reproduces it from a clean checkout (its ``init``, an earlier run's weights, committed with that run's own
    recipe beside them, back to a run from scratch) plus ../shared."""
    from models import boxes
    from vision.boxes import BoxRefiner
    from vision.faces import default_face_model_path

    plan = json.loads(boxes.RECIPE.read_text())
    step = plan
    while "init" in step:
        weights = ROOT / step["init"]
        earlier = json.loads((ROOT / "models" / f"recipe-boxes-{weights.stem.removeprefix('mcr-boxes-')}.json").read_text())
        assert weights.is_file() and step["init"] == f"models/{earlier['model']}.pt"
        assert earlier["channels"] == plan["channels"] and earlier["size"] == plan["size"]
        step = earlier
    shipped = BoxRefiner(default_face_model_path("mcr-boxes.onnx"))
    assert shipped.version == plan["version"] and shipped.size == plan["size"]  # and it learned today's regions


def test_the_riichi_wheel_is_checked_against_its_pinned_digest(tmp_path: Path) -> None:
    """A wheel in the cache that is not the one PyPI lists is refused and removed (no network: it is found first)."""
    from models.riichi import WHEEL_URL, fetch_model

    wheel = tmp_path / WHEEL_URL.rsplit("/", 1)[-1]
    wheel.write_bytes(b"not the riichi wheel")
    with pytest.raises(SystemExit, match="sha256 .*removed, try again"):
        fetch_model(tmp_path)
    assert not wheel.exists()
