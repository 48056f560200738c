"""Rapfi over the Gomocup (pbrain) protocol, for scripts/rapfi-label.py and
scripts/rapfi-missed-wins.py: one engine process that searches positions one after the other at
a node budget (its hash table kept from one position to the next)."""
import re
import subprocess
import tempfile

EVAL = re.compile(r"Eval ([+-]?M?\d+)")
MOVE = re.compile(r"\d+,\d+")


class Rapfi:
    """`with Rapfi(path, nodes) as r: r.search(moves)`; moves are `ROW,COL` cells from the empty
    15x15 board, passed to Rapfi as they are (a transposition of its x,y: the same game)."""

    def __init__(self, path, nodes):
        self.path, self.nodes = path, nodes

    def __enter__(self):
        self.empty = tempfile.TemporaryDirectory()  # no config.toml of the caller's directory
        self.p = subprocess.Popen([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=self.empty.name, text=True)
        self.send("START 15")
        while (line := self.p.stdout.readline()) and line.strip() != "OK":
            pass
        self.send("INFO timeout_turn 1000000")
        self.send("INFO timeout_match 1000000000")
        self.send(f"INFO MAX_NODE {self.nodes}")
        return self

    def __exit__(self, *exc):
        self.send("END")
        self.p.wait()
        self.empty.cleanup()

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def search(self, moves):
        """(evaluation, move): the side to move's evaluation as Rapfi writes it (`+35`, `-120`,
        `+M9`, `-M4`; None when it answered without a search) and the move it plays."""
        to_move = len(moves) % 2
        self.send("\n".join(["BOARD", *[f"{m},{1 if i % 2 == to_move else 2}" for i, m in enumerate(moves)], "DONE"]))
        value = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("Rapfi stopped")
            if m := EVAL.search(line):
                value = m.group(1)
            if MOVE.fullmatch(line.strip()):
                return value, line.strip()
