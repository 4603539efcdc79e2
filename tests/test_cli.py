import subprocess
import sys

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
