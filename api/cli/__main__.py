from api.cli import program

program()
