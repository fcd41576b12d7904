### ccrelay's words in English. Every key here is in ru.ftl and uk.ftl too (a test checks),
### and in src/catalog/keys.rs, which names the arguments the code passes.
### The line protocol's pushes and replies are not here: they are the protocol.

## A mail's subject: what happened, without its game (the subject names the game first).
## English keeps the words of the protocol's line, lower-cased keyword first.

summary-game-started = game started: you play { $side ->
        [white] White
       *[black] Black
    } against { $opponent }

# $clocks: "; clock: ..." or nothing.
summary-move = move { $move } by { $mover }{ $offer ->
        [yes] , draw offered
       *[no] {""}
    }{ $clocks }{ $cancels ->
        [yes] ; your conditional line is cancelled
       *[no] {""}
    }

summary-line-played = conditional { $move } played from your line; { $left ->
        [one] { $left } pair
       *[other] { $left } pairs
    } left in it

summary-draw = draw { $act ->
        [offered] offered
        [accepted] accepted
       *[declined] declined
    } by { $by } ({ $side ->
        [white] White
       *[black] Black
    })

summary-resigned = resign { $by } ({ $side ->
        [white] White
       *[black] Black
    }) resigns

summary-claim = claim { $by } ({ $side ->
        [white] White
       *[black] Black
    }) claims a draw ({ $claim })

summary-claim-with = claim { $by } ({ $side ->
        [white] White
       *[black] Black
    }) claims a draw ({ $claim }) with { $move }

summary-leave = leave { $by } ({ $side ->
        [white] White
       *[black] Black
    }) is on leave { $first } to { $last } ({ $days ->
        [one] { $days } day
       *[other] { $days } days
    }): their clock stops

# $clocks: the clock line, or nothing (the separator stays).
summary-time-up = time { $player } ({ $side ->
        [white] White
       *[black] Black
    }): { $overdue ->
        [silence] silence limit exceeded
       *[time-control] time limit exceeded
    }{ $forfeit ->
        [yes] , lost on time
       *[no] ; the arbiter decides
    }; { $clocks }

summary-reminder = reminder your move has waited { $days ->
        [one] { $days } day
       *[other] { $days } days
    }; { $clocks }

summary-result = result { $text }

summary-refused = refused the other node refused your action { $number }: { $reason }

summary-message = msg from { $from }: { $text }

summary-recorded = recorded { $what }

summary-recorded-move = recorded your move { $move } is in the record

summary-refill = bank { $by } ({ $side ->
        [white] White
       *[black] Black
    }) moved { $days ->
        [one] { $days } day
       *[other] { $days } days
    } from the bank to the clock

summary-long-reflection = silence { $by } ({ $side ->
        [white] White
       *[black] Black
    }) declared a long reflection for move { $number }: the silence limit does not end the game on it

summary-welcome = welcome { $name }: you are registered; moves are written to you in { $notation }

# $games: summary-event-game for each, joined by commas.
summary-event-started = event { $name } started: your { $count ->
        [one] { $count } game
       *[other] { $count } games
    }: { $games }

summary-withdrawn = withdrawn { $player } withdrew ({ $reason }): their unfinished games are lost

summary-remote = remote { $remote } { $player }: { $health ->
        [failing] the server has failed for an hour; the moves proposed wait and are sent when it answers
        [working] the server answers again; the moves waiting are sent
       *[paused] the server refused the account's name or password; paused until its configuration changes
    }

summary-event-game = { $game } ({ $side ->
        [white] White
       *[black] Black
    } against { $opponent })

## Below a mail's line.

mail-welcome =
    Your key: { $secret }
    Keep it to yourself: it proves a mail is yours.

    To move, write to { $relay } with the game id and key:{ $secret } in the subject
    and the move on a line of its own, in any notation (12. Nf3, 7163, g1-f3);
    or reply to the relay's last mail about the game.

mail-event-game = round { $round }, board { $board }: game { $game }, you play { $side ->
        [white] White
       *[black] Black
    } against { $opponent }

# One paragraph: the mail wraps it.
mail-footer =
    To answer, reply to this mail with your move on a line of its own ("12. Nf3", "12. 7163",
    in any notation), optionally "repeat: <their last move>"; or "I offer a draw",
    "I accept the draw", "I decline the draw", "I resign". Keep the game id first in the
    subject and your key in it (key:YOUR-KEY), or write to the relay's plus address.

mail-you-said = Your mail said:

mail-truncated = (Your mail was longer than the relay reads; only its beginning was read.)

## The mail when a move waits for the reader (NOTIFY), its settings page and its unsubscribe.

notify-subject = Your move in { $game } ({ $white } – { $black })
notify-moved = { $opponent } played { $move } in { $game }: it is your move.
notify-started = The game { $game } against { $opponent } has started: you play White, it is your move.
notify-open = Open the game: { $link }
notify-board = The position in { $game }
notify-why = You asked for this mail. Change or stop it here: { $settings }
notify-stop = Stop these mails
notify-digest-subject = { $count ->
        [one] One game waits
       *[other] { $count } games wait
    } for your move
notify-digest-game = { $game } ({ $white } – { $black }): { $move }
notify-digest-start = { $game } ({ $white } – { $black }): the game has started
notify-page-title = Mail when it is your move
notify-page-link = Mail when it is my move
play-radio-next-code = You play by APRS message from { $callsign }. The next code of your card is number { $number } (any of the ten lowest not yet used is taken).
play-radio-card-used = You play by APRS message from { $callsign }. Your card is used up: ask the arbiter for a new one.
notify-page-intro = The relay can mail you when a move waits for you: at each move, or once a day with every game that waits. Each mail shows the position and links to the game; one click in it stops them.
notify-page-address = Your mail address
notify-page-off = No mail
notify-page-each = A mail at each move that waits for me
notify-page-digest = One mail a day, at this hour
notify-page-hour = Hour (0–23)
notify-page-zone = Time zone (such as Europe/London; empty: UTC)
notify-page-save = Save
notify-page-saved = Saved.
notify-page-unavailable = This relay sends no such mail: its arbiter has not set it up.
notify-page-by-mail = You play by mail: every move that waits for you comes to you as a mail already.
unsubscribe-title = Stop the mails when it is your move
unsubscribe-ask = Stop the mails to { $player } when a move waits?
unsubscribe-button = Stop the mails
unsubscribe-done = Done: no more such mails will be sent. You can ask for them again on your settings page.
unsubscribe-refused = This link does not hold (any more): nothing was changed.

## The clocks, as mails and the web pages write them. English says what the protocol's clock
## line says, word for word (a test holds them equal).

# A duration: days and hours.
clock-time = { $sign }{ $days }d { $hours }h

# Whole days (a charge, a bank).
clock-days = { $days }d

# $charged: clock-charged, or nothing. $kind: how the game's time is counted; $state: whether
# the side's clock runs.
clock-side = { $side ->
        [white] White
       *[black] Black
    } { $kind ->
        [waiting] waiting
        [per-move] { $used } on this move{ $charged }, { $left } left
        [fischer] { $used } used{ $charged }, { $left } left
        [block] clock { $left }, bank { $bank }
       *[moves] { $used } used{ $charged }, { $left } left to move { $until }
    }{ $state ->
        [running] {" "}(running)
        [leave] {" "}(on leave)
       *[none] {""}
    }

# What the control charged, when it is not the time used (whole days, ICCF's doubling).
clock-charged = , charged { $charged }

clock-line = clock: { $white } | { $black }

# The side to move has thought 20 days on this move (ICCF): each day now costs two.
clock-doubling = { $side ->
        [white] White
       *[black] Black
    }: { NUMBER($day, type: "ordinal") ->
        [one] { $day }st
        [two] { $day }nd
        [few] { $day }rd
       *[other] { $day }th
    } day on this move, days now count double

## The web pages.

web-title = ccrelay: correspondence games
web-games = Games
web-events = Events
web-event = Event
web-game = Game
web-white = White
web-black = Black
web-moves = Moves
web-to-move = To move
web-result = Result
web-last-move = Last move
web-in-progress = in progress
web-awaiting-arbiter = awaiting the arbiter
web-no-games = No games to show.
web-page = Page
web-of = of
web-previous = previous
web-next = next
web-time-control = Time control
web-clock = Time left
web-no-limit = no limit
web-on-leave = on leave
web-draw-offer = Draw offered by
web-chain-head = Journal chain head
web-download-pgn = Download PGN
web-notation = Notation
web-language = Language
web-show = Show
web-position-after = Position after
web-start-position = start
web-latest = latest
web-delayed = Moves are shown with a delay: the last ones are hidden while the game goes on.
web-finished-only = Games of this event are shown once finished.
web-crosstable = Crosstable
web-place = Place
web-player = Player
web-points = Points
web-played = Games
web-sb = S-B
web-wins = Wins
web-pairings = Pairings by round
web-round = Round
web-site = Site
web-started = Started
web-not-found = Not found
web-not-found-text = There is no such page, game or event here.
web-bad-request = Bad request
web-home = All games
web-arbiter = Arbiter
web-login = Log in
web-logout = Log out
web-secret = Admin secret
web-login-failed = Login refused.
web-logged-in = Logged in as the arbiter: every game is shown whole.
web-live = live
web-board-of = Board
web-over-by = by
web-unavailable = The relay cannot answer now; try again shortly.

## How a game ended, as the web pages say it.

end-checkmate = checkmate
end-stalemate = stalemate
end-insufficient-material = insufficient material
end-resignation = resignation
end-agreement = draw agreed
end-repetition = threefold repetition
end-fifty-moves = fifty-move rule
end-time-forfeit = time forfeit
end-silence = silence past the limit
end-adjudication = adjudication
end-no-moves = no moves left
end-draw-rule = draw by rule
end-withdrawal = withdrawal

## A player's own pages (/play)
play-title = My games
play-login-title = Player's login
play-id = Player id
play-secret = Secret
play-logged-in-as = Logged in as
play-your-move = Your move
play-their-move = Opponent's move
play-opponent = Opponent
play-you-play = You play
play-no-games = You have no games yet.
play-move = Your move
play-move-help = Drag a piece, pick two squares with the keyboard (arrows, Enter), or type the move in any notation: Nf3, Кf3, g1-f3, 7163.
play-check = Check
play-send = Send the move
play-read-as = Read as
play-with-draw-offer = with a draw offer
play-offer-draw = Offer a draw
play-accept-draw = Accept the draw
play-decline-draw = Decline the draw
play-draw-offered-to-you = Your opponent offers a draw.
play-draw-offered-by-you = Your draw offer stands.
play-resign = Resign
play-resign-sure = Yes, I resign this game
play-claim = Claim a draw
play-claim-threefold = threefold repetition
play-claim-fifty = fifty moves
play-claim-with = with the move (optional)
play-messages = Messages
play-no-messages = No messages in this game.
play-send-message = Send the message
play-conditional = Conditional line
play-conditional-help = Their move, your answer, and so on, in your notation: 12... Nf6 13. Bg5
play-set-line = Set the line
play-cancel-line = Cancel the line
play-leave = Leave
play-leave-first = First day
play-leave-days = Days
play-take-leave = Take leave in all my games
play-receipt = Receipt
play-download-receipt = the signed receipt
play-done = Done
play-refused = Refused
play-forged = This form is out of date or did not come from this site: nothing was done. Reload the page and try again.
play-you = You
play-actions = In this game
play-login-needed = Log in to play your games.
play-bank = Triple Block bank
play-bank-days = Days from the bank to the clock
play-refill = Refill the clock
play-silence = Declare a long reflection
play-silence-help = The silence limit will not end the game on your current or next move; the time control still does.
play-bank-left = bank { $bank }

## The relay's replies on a player's pages, from their kind and values (the line protocol
## writes its own English line for each).

# $move: the numbered move as the player writes it, with its code: 6. Ng1-f3 (7163).
reply-moved = Move { $move } accepted{ $offer ->
        [yes] , with a draw offer
       *[no] {""}
    }.
reply-draw-offered = You offered a draw.
reply-draw-accepted = You accepted the draw: the game is drawn.
reply-draw-declined = You declined the draw offer.
reply-resigned = You resigned.
reply-claimed = Draw claimed by { $claim ->
        [fifty] the fifty-move rule
       *[threefold] threefold repetition
    }: the game is drawn.
# $line: its pairs (reply-line-pair), joined by "; ".
reply-line-set = Conditional line set: { $line }.
reply-line-pair = if { $expected } then { $answer }
reply-line-cancelled = Conditional line cancelled.
reply-message-sent = Message sent.
reply-mended = It was mended for its reader: line breaks shown as " / ", characters that hide or reorder text left out, cut at 500 characters.
reply-message-empty = The message was not sent: nothing readable was left of it.
reply-message-not-sent = The message was not sent.
# $first, $last: dates; $games: the games, listed.
reply-leave-taken = Leave from { $first } to { $last } ({ $days ->
        [one] { $days } day
       *[other] { $days } days
    }) taken in { $games }.
reply-leave-proposed = For { $games } it was sent to the other node, which keeps their records: you will be told.
reply-leave-not-in = Not in { $game }: { $why }.
reply-refilled = { $days ->
        [one] { $days } day
       *[other] { $days } days
    } moved from the bank to the clock.
reply-reflection = Long reflection declared for your move { $number }: the silence limit does not end the game on it; the time control still does.
reply-proposed = Sent to the node that keeps this game's record: you will be told when it is in it.
reply-in-game = Game { $game }: { $why }.
reply-no-game-for-leave = You have no game in progress to take leave from.
reply-not-recorded = Not recorded: nothing changed. Try again.
reply-shutting-down = The relay is shutting down: try again later.
reply-too-many = Too many commands: slow down, and try again in a minute.
reply-confirm-resignation = Tick the box to confirm the resignation.
reply-empty-message = The message is empty: write something.
reply-bad-number = { $number } is not a move number.
reply-not-understood = Not understood: { $text }
reply-not-an-action = This page does not do that.

## Why the game refuses something ($why: one of the reasons below).

refused-game-over = the game is over: { $result }
refused-stopped = the game is stopped until the arbiter decides ({ $why })
refused-not-your-turn = it is not your move: { $side ->
        [white] White
       *[black] Black
    } is to move
refused-wrong-number = wrong move number: { $written } is written, but this is move { $expected }
refused-black-number = wrong move number: { $written } is written for Black, but this is White's move { $expected }
refused-no-draw-offer = there is no draw offer to answer
refused-own-draw-offer = you cannot answer your own draw offer
refused-wrong-repeat = your opponent's move repeated in this message is { $written }, but it was { $actual }
refused-draw-too-early = too early for a draw: in this event no draw is offered or agreed before move { $from }; this is move { $now }
refused-claim = claim refused: { $why }
refused-leave = leave refused: { $why }
refused-refill = refill refused: { $why }
refused-reflection = long reflection refused: { $why }
refused-line = conditional line refused: { $why }
# $when: now or after (your move).
claim-illegal-move = that move is not legal
claim-repetition = the position { $when ->
        [after] after your move
       *[now] now
    } has occurred { $seen ->
        [one] once
       *[other] { $seen } times
    }; a draw by repetition needs 3
claim-no-fifty = the fifty-move rule is not this game's; its own limits end it by themselves
claim-fifty = { $when ->
        [after] after your move
       *[now] now
    }, { $moves ->
        [one] { $moves } move has
       *[other] { $moves } moves have
    } been made without a capture or a pawn move; the rule needs 50
leave-triple-block = a Triple Block game has no leave: refill the clock from the bank
leave-no-days = leave is at least one day
leave-not-ahead = leave is announced ahead: it can start on { $earliest } at the earliest
leave-overlaps = it overlaps leave already announced, from { $first } to { $last }
leave-over-year = { $asked } day(s) of leave in { $year } asked, { $taken } taken already, { $allowed } allowed a year
refill-no-bank = only a Triple Block game has a bank
refill-not-to-move = a clock is refilled while its side is to move
refill-no-days = a refill is at least one day
refill-out-of-time = the clock has run out
refill-bank-short = the bank holds { $bank } day(s), { $asked } asked
refill-clock-full = the clock holds at most { $clock } days: { $room } day(s) fit on it now, { $asked } asked
reflection-triple-block = a Triple Block game has no silence limit: its clock is the limit, and it runs whatever is declared
reflection-no-limit = this game has no silence limit: there is nothing to declare
# $next: yes for the player's next move, no for the one they are making.
reflection-already = a long reflection is declared already for your { $next ->
        [yes] next
       *[no] current
    } move
line-your-move = it is your move: send it; conditional moves answer your opponent's next move
line-unpaired = a line pairs each expected move of your opponent with your answer
line-too-long = at most { $max } moves in a line
line-over-before = the game would be over before "{ $text }"
# $whose: theirs (the opponent's expected move) or yours.
line-in-move = move { $index } ({ $whose ->
        [theirs] your opponent's
       *[yours] yours
    }) "{ $text }": { $why }

## Why a move cannot be read or played.

move-not-a-move = not a move: { $why }
syntax-empty = nothing is written
syntax-too-long = it is too long
syntax-null-move = a null move is not a move
syntax-numeric = not a numeric move
syntax-piece-letters = no piece is written "{ $letters }"
syntax-no-destination = no destination square
syntax-promotion-piece = the promotion piece is missing after "="
syntax-unexpected = unexpected "{ $text }"
syntax-bad-square = "{ $text }" is not a square (a1–h8 on a dark square, or 1–32)
syntax-one-square = a move needs at least two squares
syntax-mixed-separators = it mixes a dash and a capture mark
syntax-mixed-forms = it mixes algebraic squares and square numbers
move-no-such-move = no such move here
move-nothing-to = no such move here: no legal move goes to { $square }
move-legal-to = no such move here; legal moves to { $square }: { $moves }
move-game-over = no such move here: the game is over, there are no legal moves
move-ambiguous = ambiguous: it could be { $readings }
move-promotion-missing = ambiguous: the piece to promote to is missing; write one of { $readings }
# A reading of an ambiguous move, with the languages that read it so ($langs: their codes).
move-reading = { $move } (in { $langs })
move-or = {" "}or{" "}
move-any-language = any language
move-out-of-languages = no legal move in { $had }, the languages the earlier moves fit; only { $readers } read it, as { $readings } (the moves of one game are read in one language)
draughts-no-piece = no { $side ->
        [white] white
       *[black] black
    } piece stands on { $square }
draughts-must-capture = a capture is compulsory
draughts-legal-from = legal moves from { $square }: { $moves }
draughts-stuck = the piece on { $square } has no legal move
draughts-legal = legal moves: { $moves }
draughts-no-legal-move = no such move here: the game is over, { $side ->
        [white] White
       *[black] Black
    } has no legal move
draughts-stops-early = the capture goes on: { $moves }
draughts-ambiguous = ambiguous: write the whole capture, { $moves }

## Time controls, as the pages write them.

tc-moves-in-days = { $moves } moves in { $days ->
        [one] { $days } day
       *[other] { $days } days
    }
tc-days-per-move = { $days ->
        [one] { $days } day
       *[other] { $days } days
    } per move
tc-fischer = { $base } days + { $increment } days per move
tc-fischer-cap = { $base } days + { $increment } days per move, at most { $cap }
tc-triple-block = Triple Block: clock { $clock } days + { $increment } days per move for { $moves } moves, bank { $bank } days
tc-refill-by-hand = refilled by hand
tc-protection = protection { $days ->
        [one] { $days } day
       *[other] { $days } days
    }
tc-none = no time limit

## The arbiter's desk

desk = The arbiter's desk
desk-players = Players
desk-events = Events
desk-decisions = Decisions
desk-answer = The relay answered, as over the line:
desk-search = Search
desk-id = Id
desk-name = Name
desk-reach = Reached by
desk-notation = Notation
desk-lang = Language
desk-email = Mail address
desk-in-progress = Games in progress
desk-last-heard = Last heard
desk-no-players = No player matches.
desk-add-player = Add a player
desk-add-help = The id is how the player logs in: letters, digits, '-', '_', '.'. A player reached by mail needs their address; they are mailed a welcome with their secret.
desk-add = Add
desk-change = Change
desk-unchanged = (as it is)
desk-new-secret = New secret
desk-new-secret-help = The old secret stops working at once, and the player's sessions end.
desk-secret-once = This secret is shown this once and is kept nowhere readable: give it to the player, print the sheet below, or write it down now.
desk-sheet = Your access to the correspondence relay
desk-sheet-how = Log in on the relay's page "My games" (/play) with this id and secret, or with LOGIN over the line protocol. Keep the secret to yourself.
desk-print = Print this page: the sheet alone is printed.
desk-back = Back to the desk
desk-new-event = Make an event
desk-event-id-help = A short id for commands and addresses (letters, digits, '-').
desk-system = System
desk-system-help = Round robin: everyone plays everyone once; double: twice, once with each colour; match: two teams, board against board.
desk-round-robin = round robin
desk-double-round-robin = double round robin
desk-match = match
desk-event-name-help = The event's name as the pages, the exports and the mails show it.
desk-site = Site
desk-site-help = Where the event is held (PGN's Site); optional.
desk-tc-help = As the configuration writes it: 10/50 (10 moves in 50 days), 3d (days per move), fischer 30d+1d. Empty: no limit.
desk-game-kind = Game
desk-game-help = chess, or draughts-ru (Russian draughts).
desk-view = Viewing
desk-view-help = Who sees the games: public (everyone, live), delay (spectators some plies late), finished (only once over), private (the players and the arbiter).
desk-delay = Delay (plies)
desk-delay-help = With delay: how many plies spectators are kept behind.
desk-on-timeout = When time runs out
desk-on-timeout-help = forfeit: the game is lost at once; arbiter: it waits for your decision here.
desk-silence = Silence limit (days)
desk-silence-help = Days without a move after which the side to move loses, or waits for you under "arbiter". Empty: none.
desk-reminders = Reminders (days)
desk-reminders-help = Days of silence after which the side to move is reminded, e.g. 10,20.
desk-leave-days = Leave (days a year)
desk-leave-help = Days of leave each player may take in a year.
desk-make = Make the event
desk-event-text = The event, as EVENT SHOW answers
desk-event-list = The events, as EVENTS answers
desk-enter = Enter players
desk-enter-help = Tick the players to enter; they are numbered in the order listed, or by the draw.
desk-draw-lots = Draw lots
desk-start = Start the event
desk-start-help = Starting makes every game of the pairings; entries close.
desk-withdraw = Withdraw a player
desk-reason = Reason
desk-withdraw-effect = Withdrawing loses every unfinished game of the player. The standings now, and after:
desk-now = Now
desk-after = After
desk-confirm = Confirm
desk-time-left = Time left (White / Black)
desk-silence-days = Days on this move
desk-leave = On leave
desk-no-decisions = Nothing waits for the arbiter.
desk-why-time = The clock passed its limit
desk-why-silence = Silence past its limit
desk-why-stopped = Stopped: the other node's record of this game does not apply here
desk-needs = Why
desk-adjudicate = Adjudicate
desk-adjudicate-help = The result and the reason go into the record and to both players.
desk-download-crosstable = Download the crosstable (CSV)
desk-forged = This form did not come from the desk's own page, or the session has ended: nothing was done.
desk-refused = Refused
desk-record = The record
desk-verdict = The record checked (journal verify)
desk-verify-failed = The record does not verify:
desk-head = Head of the chain
desk-signed-head = Last signed head
desk-no-signed-head = none yet
desk-exports = Exports
desk-export-game = A game
desk-export-event = An event
desk-download = Download
desk-format-iccf = ICCF scoresheet
desk-event-record = the event's record (text)
desk-export-ratings = The rating list in effect
desk-format-text = Text
desk-day-log = What the arbiter did that day
desk-day = Day
desk-nothing-that-day = No entry of the arbiter's that day.
desk-entry = Entry
desk-time = Time
desk-channel = Channel
desk-kind = Kind
desk-command = Command
desk-correct = Correct a finished game's result
desk-correct-help = For a result decided wrongly (a forfeit caused by an outage, an appeal upheld). The new result and its reason go into the record after the old one and to both players; crosstables, exports and ratings count the last decision.
desk-correct-button = Correct
desk-game = Game
desk-special-leave = Special leave
desk-special-leave-help = Granted by the arbiter (illness, work): the player's clocks stop in every game they have in progress here, and the days are not counted in their yearly leave. It starts tomorrow at the earliest and may not overlap leave already taken. The reason goes into the record; both players are told.
desk-player = Player
desk-first-day = First day
desk-days = Days
desk-grant = Grant
web-ratings = Ratings
web-ratings-effective = Rating list effective { $date }
web-ratings-none = No rated games yet.
web-ratings-player = Player
web-ratings-rating = Rating
web-ratings-deviation = Deviation
web-ratings-games = Games
web-ratings-change = Change
web-ratings-history = History
web-ratings-new = new
web-ratings-provisional = ? provisional: a deviation of { $rd } or more
web-bracket = Bracket
web-bracket-final = Final
web-bracket-semi-finals = Semi-finals
web-bracket-quarter-finals = Quarter-finals
web-bracket-round = Round { $round }
web-bracket-bye = bye
web-bracket-winner = Winner
web-bracket-by-lot = by lot
web-bracket-extra-games = after extra games
web-bracket-withdrawal = by withdrawal
desk-knockout = knock-out (cup)
