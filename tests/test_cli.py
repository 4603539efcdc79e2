import subprocess
import sys
from pathlib import Path

from api.cli import SUBCOMMANDS, build_parser, main


def test_help_lists_every_subcommand(capsys):
    help_text = build_parser().format_help()
    for name in SUBCOMMANDS:
        assert name in help_text


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage: mcr" in capsys.readouterr().out


def test_mcr_help_runs_as_a_program():
    done = subprocess.run([sys.executable, "-m", "api.cli", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "MCR Lens" in done.stdout


def test_each_second_look_has_a_model_option_that_names_a_missing_file(capsys, tmp_path):
    from vision.weights import SECOND_LOOK_FACES

    for name in SECOND_LOOK_FACES:  # --flower-model, --character-model...
        missing = tmp_path / f"no-{name}.onnx"
        photo = Path(__file__).resolve().parents[1] / "examples" / "hand.jpg"
        assert main(["detect", f"--{name[:-1]}-model", str(missing), str(photo)]) == 2
        assert f"{missing}: no such face model file" in capsys.readouterr().err


def test_a_system_error_names_its_path_and_reason(capsys, tmp_path):
    """A folder that cannot be made (under a file) is named with the system's reason, not Python's errno form."""
    plain = tmp_path / "a-file"
    plain.write_text("")
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "x.txt").write_text("")
    assert main(["label", str(photos), "--out", str(plain / "labels")]) == 2
    assert capsys.readouterr().err.strip() == f"mcr label: error: {plain / 'labels'}: Not a directory"
