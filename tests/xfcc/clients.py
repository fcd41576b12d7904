#!/usr/bin/env python3
"""Python's SOAP toolkits against a running ccrelay: zeep plays White, suds (the toolkit Lucas
Chess uses) plays Black, each loading the service description from the relay.

usage: clients.py ENDPOINT GAME WHITE WHITE_SECRET BLACK BLACK_SECRET
Prints "ok" and exits 0 when every step gave what it should.
"""

import sys

import zeep
from suds.client import Client as SudsClient

endpoint, game, white, white_secret, black, black_secret = sys.argv[1:7]
wsdl = endpoint + "?wsdl"


def check(what, got, expected):
    if got != expected:
        sys.exit(f"{what}: got {got!r}, expected {expected!r}")


def find(result, game_id):
    # zeep gives the array's items as a list; suds an object with them under XfccGame.
    games = result if isinstance(result, list) else getattr(result, "XfccGame", [])
    for g in games or []:
        if str(g.id) == game_id:
            return g
    sys.exit(f"game {game_id} not among {games!r}")


# zeep: White.
z = zeep.Client(wsdl).service
g = find(z.GetMyGames(username=white, password=white_secret), game)
check("zeep myTurn", g.myTurn, True)
check("zeep hasWhite", g.hasWhite, True)
check("zeep result", g.result, "Ongoing")
check(
    "zeep MakeAMove",
    z.MakeAMove(
        username=white,
        password=white_secret,
        gameId=game,
        resign=False,
        acceptDraw=False,
        movecount=1,
        myMove="e4",
        offerDraw=False,
        claimDraw=False,
        myMessage="zeep says <hello> & здравствуй",
    ),
    "Success",
)

# suds: Black.
s = SudsClient(wsdl).service
g = find(s.GetMyGames(black, black_secret), game)
check("suds myTurn", g.myTurn, True)
check("suds hasWhite", g.hasWhite, False)
check("suds moves", g.moves, "1.e4")
check("suds message", g.message, "zeep says <hello> & здравствуй")
check(
    "suds MakeAMove",
    s.MakeAMove(black, black_secret, game, False, False, 1, "e5", False, False, "suds answers"),
    "Success",
)
check(
    "suds wrong password",
    s.MakeAMove(black, "wrong", game, False, False, 2, "Nf6", False, False, None),
    "AuthenticationFailed",
)

# zeep again: a wrong move number, then the right one with a draw offer.
check(
    "zeep InvalidMoveNumber",
    z.MakeAMove(white, white_secret, game, False, False, 5, "Nf3", False, False, None),
    "InvalidMoveNumber",
)
check(
    "zeep move with a draw offer",
    z.MakeAMove(white, white_secret, game, False, False, 2, "Nf3", True, False, None),
    "Success",
)
g = find(s.GetMyGames(black, black_secret), game)
check("suds drawOffered", g.drawOffered, True)
check("suds moves after", g.moves, "1.e4 e5 2.Nf3")
check("suds message from zeep", g.message, "zeep says <hello> & здравствуй")
print("ok")
