#!/usr/bin/env tclsh
# Scid's own XFCC client code (Debian's scid-data: tcl/tools/correspondence.tcl), without its
# windows: receives the player's games, writes their PGN, sends a move with a comment, and
# reports a refused password the way Scid does.
#
# usage: tclsh scid.tcl CORRESPONDENCE_TCL URI PLAYER SECRET GAME MOVECOUNT MOVE COMMENT OUTDIR
# Prints what Scid would show in its console, one line each, then "ok".

package require http
package require tdom

lassign $argv source uri player secret game movecount move comment outdir

# What the Xfcc code uses from the rest of Scid and from Tk.
set ::scidVersion "4.7"
set ::scidVersionDate "2021"
proc tk {args} { return "x11" }
set ::shown {}
proc tk_messageBox {args} {
    lappend ::shown "messagebox [dict get $args -title]"
}
namespace eval ::CorrespondenceChess {
    proc updateConsole {line} { lappend ::shown $line }
}

# Only the Xfcc namespace: the file's first `namespace eval Xfcc { ... }` block.
set f [open $source r]
fconfigure $f -encoding utf-8
set text [read $f]
close $f
set start [string first "namespace eval Xfcc \{" $text]
set end $start
while {![info complete [string range $text $start $end]] || [string index $text $end] ne "\}"} {
    incr end
    if {$end >= [string length $text]} { error "no end of namespace Xfcc in $source" }
}
eval [string range $text $start $end]

# Receive, write the PGN of every game, send the move.
set xml [::Xfcc::Receive $uri $player $secret]
::Xfcc::SOAPError relay $xml
::Xfcc::WritePGN $outdir relay ICCF $xml
set answer [::Xfcc::SendMove $uri $player $secret $game $movecount $move $comment \
                false false false false]
::Xfcc::SOAPError relay $answer
# A wrong password: Scid tells the player.
set refused [::Xfcc::Receive $uri $player "not-$secret"]
::Xfcc::SOAPError relay $refused
set refused [::Xfcc::SendMove $uri $player "not-$secret" $game $movecount $move "" \
                 false false false false]
::Xfcc::SOAPError relay $refused

fconfigure stdout -encoding utf-8
foreach line $::shown { puts $line }
puts ok
