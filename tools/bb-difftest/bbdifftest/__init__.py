"""bb-difftest: differential testing of block-fuse on random Linalg programs.

program.py   the program representation (operators over named dimensions)
generator.py seeded random programs drawn from the operator table
emit.py      printing a program as Linalg on tensors
harness.py   running bb-opt and bb-run on one program and judging it
minimise.py  shrinking a failing program while it fails the same way
cli.py       the bb-difftest command line (docs/Difftest.md)
"""
