#!/usr/bin/env python3
"""Writes the first corpus of every target from the project's own material: the test
fixtures, the worked examples of docs/, the seed texts the project started from (given as
arguments, optional), and hand-made inputs for each reader (tokens, commands, link frames
sealed with the harness's key). `fuzz/run` keeps what the fuzzer adds beside these.
Run from the repository root: python3 fuzz/seed.py [SEED_TEXT...]"""
import glob
import hashlib
import hmac
import os
import struct
import sys

OUT = "fuzz/corpus"


def put(target, name, data):
    os.makedirs(f"{OUT}/{target}", exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(f"{OUT}/{target}/seed-{name}", "wb") as f:
        f.write(data)


def first_games(path, count, limit=6000):
    """The first `count` games of a PGN file, cut to `limit` bytes."""
    text = open(path, encoding="utf-8", errors="replace").read()
    games, at = [], 0
    for _ in range(count):
        nxt = text.find("\n[Event ", at + 1)
        games.append(text[at:nxt if nxt > 0 else len(text)])
        at = nxt
        if nxt < 0:
            break
    return "".join(games)[:limit]


# movetext: the seeds' games, docs' example, real PGN (tags, comments, variations, NAGs).
for p in sorted(glob.glob("tests/fixtures/seeds/*.txt")) + ["docs/examples/ruy-lopez.ru.txt"]:
    put("movetext", os.path.basename(p), open(p, "rb").read())
for p in sorted(glob.glob("tests/fixtures/games/*.pgn")):
    put("movetext", os.path.basename(p) + ".head", first_games(p, 2))
for i, p in enumerate(sys.argv[1:]):
    data = open(p, "rb").read()
    for j in range(0, min(len(data), 12000), 3000):
        put("movetext", f"text{i}-{j}", data[j:j + 3000])
        put("draughts_text", f"text{i}-{j}", data[j:j + 3000])
put("movetext", "pgn-features",
    '[Event "x"]\n[FEN "r3k2r/1P6/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1"]\n\n'
    '1. exd6 e.p. {c} (1. O-O $1) bxa1=Q 2. bxa8=N+ Qxe1+ 3. Kxe1 (=) 1/2-1/2\n'
    '%escape\n1. e4 1... e5 2. Кg1—f3 Кb8:с6 3. Сf1-b5 а7—а6 *\n\n1. 5254 5755 2. 0-0 ...\n')

# move_token: byte 0 picks start (low 2 bits) and language (the rest), byte 1 the number of
# moves played first, then those choices, then the token.
tokens = ["e4", "Nf3", "O-O", "0-0-0", "5254", "e2-e4", "Кg1—f3", "exd6 e.p.", "e8=Q",
          "b8Q+", "gxh1=N#", "♘f3", "Lc4", "Sf3", "dxe5!?", "bxa8Q", "b7b8q", "27281",
          "Крe1-g1", "ed6", "Фd1:d8+", "a1", "R:a8", "O-O-O+", "e8N", "b2-b1=С"]
for i, t in enumerate(tokens):
    for selector, plies in [(0, b""), (1 + 4 * 20, b""), (2 + 4 * 7, b"\x03\x05"), (3 + 4 * 3, b"")]:
        put("move_token", f"{i}-{selector}", bytes([selector, len(plies)]) + plies + t.encode())

# command: the protocol's lines (docs/protocol.md) and the grammar's own examples.
commands = ["GAMES", "SHOW demo-1", "MOVE demo-1 1. e4", "MOVE demo-1 1... e5 REPEAT 5254",
            "MOVE demo-1 Кb8—c6", "MOVE demo-1 3 Bb5 (=)", "MOVE ep-2 4. exd6 e.p.",
            "MOVE mate-1 Фd8—h4", "DRAW g1 OFFER", "DRAW g1 ACCEPT", "DRAW g1 DECLINE",
            "RESIGN g1", "CLAIM g7 threefold", "CLAIM g1 FIFTY 40. Rd1", "IF g7 12... Nf6 13. Bg5",
            "LEAVE 2027-07-01 14", "MSG g1 hello, good luck", "ACK", "ACK 12",
            "CREATE ep-2 alice boris FEN rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
            "CREATE ep-1 alice boris EVENT demo ROUND 2 FEN rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            "CREATE d1 alice boris GAME draughts-ru", "ADJUDICATE g1 1-0 time forfeit",
            "CLOCK +40d", "CLOCK 2027-01-01T00:00:00Z", "12. Nf3 (=) повтор e5", "MOVE g 5254",
            "ХОД g1 e4", "e4 + !? (=)"]
for i, c in enumerate(commands):
    put("command", str(i), c)

# mail: the email fixtures.
for p in sorted(glob.glob("tests/fixtures/email/*/*.eml")):
    put("mail", p.split("/")[-2] + "-" + os.path.basename(p), open(p, "rb").read())

# link: frames sealed with the harness's key, as the peer (direction 1) sends them with
# counters above the harness's last one (0x12345), and the payloads alone.
KEY = bytes([7] * 32)


def cobs(data):
    out, block = bytearray(), bytearray()
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += bytes([255]) + block
                block = bytearray()
    out += bytes([len(block) + 1]) + block
    return bytes(out)


def seal(kind, ctr, ack, payload, direction=1):
    body = bytes([kind]) + struct.pack(">H", ctr & 0xFFFF) + bytes([ack]) + payload
    tag = hmac.new(KEY, bytes([direction]) + struct.pack(">Q", ctr) + body, hashlib.sha256).digest()[:8]
    return cobs(body + tag) + b"\0"


def message(kind, game, number, rest=b"", black=False):
    return bytes([kind | (0x80 if black else 0)]) + struct.pack(">IH", game, number) + rest


payloads = [
    message(1, 0x01020304, 0, struct.pack(">H", (12 << 10) | (28 << 4) | 0)),
    message(1, 7, 3, struct.pack(">H", (52 << 10) | (60 << 4) | (1 << 1) | 1), black=True),
    message(7, 9, 1, bytes([2, 22, 15, 24])),
    message(7, 9, 2, bytes([1, 22, 18])),
    message(2, 1, 4), message(3, 1, 5), message(4, 1, 6), message(5, 1, 7, black=True),
    message(6, 1, 8, bytes([11]) + b"not your go"),
]
hello = bytes([1]) + bytes(range(16)) + bytes(16)
stream = b""
for i, p in enumerate(payloads):
    put("link_message", f"payload-{i}", p)
    stream += seal(0x10, 0x12346 + i, i, p)
put("link_message", "hello", hello)
for i, t in enumerate(["22-18", "22x15x24", "5254", "57581", "1-32x9x18"]):
    put("link_message", f"text-{i}", t)
put("link_message", "seal", bytes([3, 9]) + struct.pack(">Q", 0x2468A) + payloads[0])
put("link_stream", "session", b"\x05" + seal(1, 0, 0, hello) + seal(2, 0x12346, 0, b"") + stream)
put("link_stream", "noise", b"\x00" + b"\x11\x22\x00\x00" + stream[:40] + b"\x00" + stream[40:])
put("link_stream", "acks", b"\x1f" + seal(3, 0x12346, 1, b"") + seal(3, 0x12346, 1, b""))

# config: the shipped configurations.
for p in ["config/ccrelay.toml", "packaging/ccrelay.toml"]:
    put("config", os.path.basename(os.path.dirname(p)) + ".toml", open(p, "rb").read())

# xfcc: the operations as the test clients send them.
XFCC = "http://www.bennedik.com/webservices/XfccBasic"
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"


def envelope(op, fields):
    inner = "".join(f"<{n}>{v}</{n}>" for n, v in fields)
    return (f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP}">'
            f'<soap:Body><{op} xmlns="{XFCC}">{inner}</{op}></soap:Body></soap:Envelope>')


put("xfcc", "get-my-games", envelope("GetMyGames", [("username", "alice"), ("password", "a&amp;b&#x416;")]))
put("xfcc", "make-a-move", envelope("MakeAMove", [
    ("username", "alice"), ("password", "s"), ("gameId", "7"), ("resign", "false"),
    ("acceptDraw", "false"), ("movecount", "12"), ("myMove", "Nf3"), ("offerDraw", "true"),
    ("claimDraw", "false"), ("myMessage", "<![CDATA[good luck]]> &lt;3")]))
put("xfcc", "community",
    f'<SOAP-ENV:Envelope xmlns:SOAP-ENV="{SOAP}" xmlns:ns="{XFCC}"><SOAP-ENV:Header/>'
    f'<SOAP-ENV:Body><ns:GetMyGames><ns:username>alice</ns:username><ns:password>a&amp;bЖж'
    f'</ns:password></ns:GetMyGames></SOAP-ENV:Body></SOAP-ENV:Envelope>')

# draughts: the seed 003 fixtures, and tokens after a few moves.
for p in sorted(glob.glob("tests/fixtures/draughts/seed003/*")):
    if not p.endswith(".md"):
        put("draughts_text", os.path.basename(p), open(p, "rb").read())
put("draughts_text", "fen", "W:W21,22,K30:B1,2,K9")
for i, t in enumerate(["c3-d4", "22-18", "g1:e3:c5:a7", "с3—d4", "22x15x24", "c3d4", "e3:c5!",
                       "18x11", "d4:b6X"]):
    for plies in [b"", b"\x00\x01\x02", b"\x05\x05\x05\x05\x05\x05"]:
        put("draughts_move", f"{i}-{len(plies)}", bytes([0, len(plies)]) + plies + t.encode())
