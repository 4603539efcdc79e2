from pathlib import Path

import pytest

from api.cli import main


def test_synth_writes_a_yolo_folder(styles: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "set"
    assert main(["synth", "--n", "3", "--out", str(out), "--styles", styles[0], "--size", "256"]) == 0
    assert len(list((out / "images").glob("*.jpg"))) == 3 == len(list((out / "labels").glob("*.txt")))
    assert "3 scenes" in capsys.readouterr().out


def test_synth_rejects_unknown_style(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["synth", "--n", "1", "--out", str(tmp_path), "--styles", "no-such-style"]) == 2
    err = capsys.readouterr().err
    assert "error: unknown style no-such-style" in err and "Traceback" not in err


def test_synth_rejects_unknown_layout(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["synth", "--n", "1", "--out", str(tmp_path), "--layouts", "pyramid"]) == 2
    assert "unknown layout pyramid" in capsys.readouterr().err


def test_synth_face_sheets_and_scene_sheet(styles: tuple[str, ...], tmp_path: Path) -> None:
    assert main(["synth", "--face-sheets", str(tmp_path / "faces"), "--styles", styles[0]]) == 0
    assert (tmp_path / "faces" / f"faces-{styles[0]}.png").stat().st_size > 10_000
    sheet = tmp_path / "sheet.jpg"
    assert main(["synth", "--n", "2", "--out", str(tmp_path / "set"), "--styles", styles[0], "--size", "128",
                 "--sheet", str(sheet)]) == 0
    assert sheet.stat().st_size > 1_000


def test_synth_needs_n_and_out(capsys: pytest.CaptureFixture) -> None:
    assert main(["synth"]) == 2
    assert "give --n and --out" in capsys.readouterr().err


def test_progress_into_a_log_writes_a_line_per_tenth(capsys: pytest.CaptureFixture) -> None:
    from datasets.generate import ProgressBar

    bar = ProgressBar()
    for done in range(1, 201):
        bar(done, 200)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10 and lines[-1].startswith("200/200 scenes")


def test_style_groups_take_what_is_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from api.cli.synth import pick_styles
    from datasets import faces

    here = faces.FaceSource("here", "fonts-here", (tmp_path,), render=dict)
    gone = faces.FaceSource("gone", "fonts-gone", (tmp_path / "nope",), render=dict)
    held = faces.FaceSource("held", "fonts-held", (tmp_path / "nope",), render=dict)
    monkeypatch.setattr(faces, "SOURCES", (here, gone, held))
    monkeypatch.setattr(faces, "BY_NAME", {s.name: s for s in (here, gone, held)})
    monkeypatch.setattr(faces, "HELD_OUT", ("held",))
    assert pick_styles("train") == ("here",) and pick_styles("all") == ("here",)
    with pytest.raises(ValueError, match="held; apt-get install fonts-held"):
        pick_styles("held-out")
    with pytest.raises(ValueError, match="gone; apt-get install fonts-gone"):
        pick_styles("here,gone")


def test_synth_rejects_a_restyle_share_outside_0_to_1(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["synth", "--n", "1", "--out", str(tmp_path), "--restyle", "1.5"]) == 2
    err = capsys.readouterr().err
    assert "--restyle is a share of scenes, 0 to 1 (got 1.5)" in err and "Traceback" not in err
