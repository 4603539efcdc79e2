"""The recorded recipe and data split: no flips, the held-out list follows its rule, the data mix file."""

import json
import subprocess
from pathlib import Path

import pytest

from datasets.real_photos import is_held_out, source_name
from models.training.recipes import DETECTOR_RECIPE, REAL_PHOTOS, ROOT, committed_file, read_recipe, start_weights
from models.training.train import data_yaml_for

REAL = REAL_PHOTOS / "train" / "images"


def recipe() -> dict:
    return json.loads(DETECTOR_RECIPE.read_text())


def has_history(commit: str) -> bool:
    """Whether this checkout's git history holds ``commit`` (a shallow clone or an exported tree does not)."""
    return subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True).returncode == 0


def check_start(init: dict) -> None:
    """A recipe's start lies in the tree or, left it, at the commit the recipe names (checked where history is)."""
    if (ROOT / init["weights"]).is_file():
        return
    assert len(init["commit"]) == 40, init  # a full hash: short ones grow ambiguous
    if not has_history(init["commit"]):
        pytest.skip(f"commit {init['commit']} is not in this checkout's history (a shallow clone)")
    assert subprocess.run(["git", "cat-file", "-e", f"{init['commit']}:{init['weights']}"], cwd=ROOT).returncode == 0


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
    from models.training import faces

    plan = json.loads(faces.RECIPE.read_text())
    plan["data"] = {"train": [str(tmp_path / "synth-x")], "val": [str(tmp_path)], "note": "mcr synth --out synth-x"}
    with pytest.raises(SystemExit, match=r"synth-x: build them first \(mcr synth --out synth-x\)"):
        faces.train(plan, tmp_path / "work", fresh=True)


def test_the_shipped_stage_continues_weights_from_git_history_and_never_flips(tmp_path: Path) -> None:
    shipped = recipe()
    assert shipped["augmentation"]["fliplr"] == 0.0 and shipped["augmentation"]["flipud"] == 0.0
    assert start_weights({"name": "x", "init": {"from": "the riichi model"}}, tmp_path) is None  # a first stage
    with pytest.raises(SystemExit, match="missing.pt: the weights recipe x continues are missing"):
        start_weights({"name": "x", "init": {"from": "somewhere", "weights": "models/missing.pt"}}, tmp_path)
    with pytest.raises(SystemExit, match="models/gone.pt at commit 0+ is not in this repository's history"):
        start_weights({"name": "x", "init": {"weights": "models/gone.pt", "commit": "0" * 40}}, tmp_path)
    init = shipped["init"]
    assert not (ROOT / init["weights"]).exists()  # superseded weights have left the tree...
    if not has_history(init["commit"]):
        pytest.skip(f"commit {init['commit']} is not in this checkout's history (a shallow clone)")
    start = start_weights(shipped, tmp_path)  # ...and are taken from the commit that holds them, once
    assert start == tmp_path / "starts" / f"{init['commit'][:12]}-mcr-tiles-gpu1.pt"
    assert start.read_bytes() == committed_file(init["weights"], init["commit"]) and start.stat().st_size > 1_000_000
    assert start_weights(shipped, tmp_path) == start and not list(start.parent.glob("*.part"))


@pytest.mark.parametrize("path", sorted((ROOT / "models").glob("recipe-*.json")), ids=lambda p: p.name)
def test_every_recipe_starts_from_weights_in_the_tree_or_at_the_commit_it_names(path: Path) -> None:
    init = json.loads(path.read_text())["init"]
    check_start(init if isinstance(init, dict) else {"weights": init})


@pytest.mark.parametrize("path", sorted((ROOT / "models").glob("recipe-*.json")), ids=lambda p: p.name)
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
    from models.training import faces
    from models.training.recipes import SECOND_LOOK_RECIPES
    from vision.faces import SECOND_LOOKS, FaceReader, default_face_model_path

    plan = json.loads(SECOND_LOOK_RECIPES[name].read_text())
    assert faces.reader_classes(plan) == codes
    assert plan["size"] > json.loads(faces.RECIPE.read_text())["size"]  # a closer look than the face reader's
    assert plan["init"]["weights"]  # it continues reader weights (where they lie: the test above)
    assert f"{plan['model']}.onnx" == SECOND_LOOKS[name]
    shipped = FaceReader(default_face_model_path(SECOND_LOOKS[name]))
    assert list(shipped.classes) == faces.reader_classes(plan) and shipped.size == plan["size"]
    assert shipped.version == plan["version"]


@pytest.mark.parametrize("name", ["mcr-faces.onnx", "mcr-flowers.onnx", "mcr-characters.onnx", "mcr-boxes.onnx"])
def test_the_shipped_readers_are_int8(name: str) -> None:
    """`models.training.faces.export` quantizes a reader (3x faster on CPU, the same faces read: see `quantize`), and
    `models.training.boxes.export` the box refiner."""
    import onnxruntime

    from vision.faces import default_face_model_path

    path = default_face_model_path(name)
    if not path.is_file():
        pytest.skip(f"no shipped {name}")
    meta = onnxruntime.InferenceSession(str(path)).get_modelmeta().custom_metadata_map
    assert meta.get("quantized", "").startswith("int8"), meta.get("quantized")


def test_a_recipe_names_its_classes_by_tile_code() -> None:
    from models.training import faces

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
    from models.training import faces
    from vision.faces import FaceReader, default_face_model_path

    plan = json.loads(faces.RECIPE.read_text())
    check_start(plan["init"])
    shipped = FaceReader(default_face_model_path())
    assert shipped.version == plan["version"] and list(shipped.classes) == faces.reader_classes(plan)
    assert shipped.size == plan["size"]


def test_the_shipped_box_refiner_is_the_recipes_and_continues_committed_weights() -> None:
    """`models/recipe-boxes.json` records the refiner shipped as `models/mcr-boxes.onnx`: `mcr train --boxes`
    reproduces it from a clean checkout (its ``init``, an earlier run's weights, committed with that run's own
    recipe beside them, back to a run from scratch) plus ../shared."""
    from models.training import boxes
    from vision.boxes import BoxRefiner
    from vision.faces import default_face_model_path

    plan = json.loads(boxes.RECIPE.read_text())
    commit = plan["init"]["commit"]
    check_start(plan["init"])
    step, weights = plan, plan["init"]["weights"]
    while weights is not None:  # each earlier run's weights beside its recipe at that commit, back to one from scratch
        earlier = json.loads(committed_file(f"models/recipe-boxes-{Path(weights).stem.removeprefix('mcr-boxes-')}.json",
                                            commit))
        assert weights == f"models/{earlier['model']}.pt" and committed_file(weights, commit)
        assert earlier["channels"] == plan["channels"] and earlier["size"] == plan["size"]
        step, weights = earlier, earlier.get("init")
    assert step["version"] == "0.1.0"
    shipped = BoxRefiner(default_face_model_path("mcr-boxes.onnx"))
    assert shipped.version == plan["version"] and shipped.size == plan["size"]  # and it learned today's regions


def test_the_riichi_wheel_is_checked_against_its_pinned_digest(tmp_path: Path) -> None:
    """A wheel in the cache that is not the one PyPI lists is refused and removed (no network: it is found first)."""
    from models.training.riichi import WHEEL_URL, fetch_model

    wheel = tmp_path / WHEEL_URL.rsplit("/", 1)[-1]
    wheel.write_bytes(b"not the riichi wheel")
    with pytest.raises(SystemExit, match="sha256 .*removed, try again"):
        fetch_model(tmp_path)
    assert not wheel.exists()
