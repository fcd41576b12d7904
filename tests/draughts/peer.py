#!/usr/bin/env python3
"""The two Python draughts libraries ccrelay's Russian draughts is checked against.

pydraughts (PyPI `pydraughts`, variant "russian") and py-draughts (PyPI `py-draughts`, its
RussianBoard) both import as `draughts`, so each is installed in its own folder
(tests/draughts/.peers/<name>, see .ci/run) and this script loads one per run:

    peer.py LIB perft FEN DEPTH        the number of move sequences at each depth 1..DEPTH
    peer.py LIB moves FEN              the legal moves, one JSON object per line
    peer.py LIB random SEED GAMES PLIES [FEN]
                                       random whole games, one JSON object per line
    peer.py LIB replay                 reads games (JSON lines on stdin: start FEN and every
                                       move's landing squares) and plays them through LIB
    peer.py LIB outcomes               the library's result after every half-move of the
                                       games on stdin (as for replay, with their start)
    peer.py py-draughts pdn            reads PDN games on stdin with py-draughts' own reader

Positions go in as PDN FEN numbered as ccrelay numbers them (1 = b8, 32 = g1). Moves come out
as algebraic squares (every landing square) with the pieces taken: pydraughts numbers its
Russian squares from a1 = 1, so its numbers are never compared, only squares.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(lib):
    path = os.path.join(HERE, ".peers", lib)
    if not os.path.isdir(path):
        sys.exit(
            f"{lib} is not installed in {path}: "
            f"python3 -m pip install --target {path} (see .ci/run)"
        )
    sys.path.insert(0, path)


def pdn_to_alg(n):
    """PDN number (1 = b8) to an algebraic name."""
    i = n - 1
    row = i // 4
    rank = 8 - row
    file = 2 * (i % 4) + (1 if row % 2 == 0 else 0)
    return "abcdefgh"[file] + str(rank)


def pydraughts_to_alg(n):
    """pydraughts' Russian number (1 = a1) to an algebraic name."""
    i = n - 1
    rank = i // 4 + 1
    file = 2 * (i % 4) + (0 if rank % 2 == 1 else 1)
    return "abcdefgh"[file] + str(rank)


def parse_fen(fen):
    """ccrelay's PDN FEN to (turn, {alg: (color, king)})."""
    fields = fen.split(":")
    pieces = {}
    for field in fields[1:]:
        color = field[0]
        for item in filter(None, field[1:].split(",")):
            king = item.startswith("K")
            pieces[pdn_to_alg(int(item.lstrip("K")))] = (color, king)
    return fields[0], pieces


def alg_fen(fen):
    turn, pieces = parse_fen(fen)
    sides = []
    for color in "WB":
        items = [("K" if k else "") + sq for sq, (c, k) in sorted(pieces.items()) if c == color]
        sides.append(color + ",".join(items))
    return f"{turn}:{sides[0]}:{sides[1]}"


class PyDraughts:
    """pydraughts, variant "russian"."""

    def __init__(self, fen):
        from draughts import Board

        self.board = Board(variant="russian", fen=alg_fen(fen))

    def moves(self):
        out = []
        for m in self.board.legal_moves():
            path = [pydraughts_to_alg(m.board_move[0][0])]
            path += [pydraughts_to_alg(step[1]) for step in m.board_move]
            taken = sorted(pydraughts_to_alg(c) for c in (m.captures or []))
            out.append((m, path, taken))
        return out

    def push(self, m):
        self.board.push(m)

    def pop(self):
        self.board.pop()

    def result(self):
        w = self.board.winner()
        return {None: None, 0: "1/2-1/2", 2: "1-0", 1: "0-1"}[w]

    def fen(self):
        return self.board.fen


class PyDraughtsBitboard:
    """py-draughts, RussianBoard."""

    def __init__(self, fen):
        from loguru import logger

        logger.remove()
        from draughts import RussianBoard

        if fen == "startpos":
            self.board = RussianBoard()
        else:
            self.board = RussianBoard.from_fen(fen)

    def moves(self):
        out = []
        for m in self.board.legal_moves:
            path = [pdn_to_alg(s + 1) for s in m.square_list]
            taken = sorted(pdn_to_alg(c + 1) for c in m.captured_list)
            out.append((m, path, taken))
        return out

    def push(self, m):
        self.board.push(m)

    def pop(self):
        self.board.pop()

    def result(self):
        r = self.board.result
        return None if r == "-" else r

    def fen(self):
        return self.board.fen


LIBS = {"pydraughts": PyDraughts, "py-draughts": PyDraughtsBitboard}


def perft(lib, depth):
    if depth == 0:
        return 1
    moves = lib.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m, _, _ in moves:
        lib.push(m)
        total += perft(lib, depth - 1)
        lib.pop()
    return total


def main():
    name, command, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    load(name)
    make = LIBS[name]
    if command == "perft":
        fen, depth = args[0], int(args[1])
        print(json.dumps([perft(make(fen), d) for d in range(1, depth + 1)]))
    elif command == "moves":
        for _, path, taken in make(args[0]).moves():
            print(json.dumps({"path": path, "taken": taken}))
    elif command == "random":
        seed, games, plies = int(args[0]), int(args[1]), int(args[2])
        start = args[3] if len(args) > 3 else None
        rng = random.Random(seed)
        for _ in range(games):
            if start:
                lib = make(start)
            else:
                lib = make("startpos" if name == "py-draughts" else
                           "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
            moves = []
            while len(moves) < plies and lib.result() is None:
                legal = lib.moves()
                if not legal:
                    break
                m, path, taken = rng.choice(legal)
                moves.append({"path": path, "taken": taken})
                lib.push(m)
            record = {"moves": moves, "result": lib.result()}
            if name == "pydraughts":
                # The library's own PDN of the game (algebraic, GameType 25,W,8,8,A0,0).
                from draughts.PDN import PDNWriter

                record["pdn"] = PDNWriter(filename="", board=lib.board).pdn_text
            print(json.dumps(record))
    elif command == "replay":
        for line in sys.stdin:
            game = json.loads(line)
            lib = make(game.get("start") or "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
            error = None
            for ply, path in enumerate(game["moves"]):
                found = [m for m, p, _ in lib.moves() if p == path]
                if len(found) != 1:
                    error = f"ply {ply + 1}: {'-'.join(path)} fits {len(found)} legal moves"
                    break
                lib.push(found[0])
            print(json.dumps({"error": error, "plies": len(game["moves"])}))
    elif command == "outcomes":
        # The library's result after every half-move of each game on stdin.
        for line in sys.stdin:
            game = json.loads(line)
            lib = make(game["start"])
            results = []
            for path in game["moves"]:
                found = [m for m, p, _ in lib.moves() if p == path]
                if len(found) != 1:
                    results.append("illegal")
                    break
                lib.push(found[0])
                results.append(lib.result())
            print(json.dumps(results))
    elif command == "pdn":
        from loguru import logger

        logger.remove()
        from draughts import RussianBoard

        text = sys.stdin.read()
        for chunk in filter(str.strip, text.split("\n\n[")):
            pdn = chunk if chunk.startswith("[") else "[" + chunk
            try:
                board = RussianBoard.from_pdn(pdn)
                print(json.dumps({"plies": len(board._moves_stack), "fen": board.fen, "error": None}))
            except Exception as e:  # report, do not stop: the test names the game
                print(json.dumps({"plies": None, "fen": None, "error": str(e)}))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
