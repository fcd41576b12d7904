// ccrelay: a player's pages. Moving a piece on the board (mouse, finger, keyboard) writes
// the move in the move box as from-to squares; the box asks the relay how it reads the move
// as it is typed; the page follows the player's games live. Without this script every form
// still works.
(function () {
  'use strict';
  var SQ = 45, EDGE = 14;
  var previewTimer = null, previewSeq = 0;

  function main() { return document.getElementById('main'); }

  // The square under an SVG point, from the player's side of the board.
  function squareAt(svg, clientX, clientY) {
    var pt = svg.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    var m = svg.getScreenCTM();
    if (!m) return null;
    var p = pt.matrixTransform(m.inverse());
    var col = Math.floor((p.x - EDGE) / SQ), row = Math.floor((p.y - EDGE) / SQ);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    return nameOf(col, row);
  }

  function black() { var m = main(); return m && m.getAttribute('data-color') === 'black'; }

  function nameOf(col, row) {
    var file = black() ? 7 - col : col, rank = black() ? row : 7 - row;
    return String.fromCharCode(97 + file) + (rank + 1);
  }

  function colRow(square) {
    var file = square.charCodeAt(0) - 97, rank = parseInt(square.slice(1), 10) - 1;
    return black() ? [7 - file, rank] : [file, 7 - rank];
  }

  function pieceOn(svg, square) {
    return svg.querySelector('g.piece[data-square="' + square + '"]');
  }

  // The move from one square to another, as the move box takes it.
  function moveText(svg, from, to) {
    var kind = svg.getAttribute('data-kind');
    var piece = pieceOn(svg, from);
    var p = piece ? piece.getAttribute('data-piece') : '';
    if (kind === 'draughts-ru') {
      var jump = Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) > 1 &&
        !(p === 'W' || p === 'B') ? ':' : '-';
      return from + jump + to;
    }
    var text = from + '-' + to;
    if ((p === 'P' && to[1] === '8') || (p === 'p' && to[1] === '1')) text += 'Q';
    return text;
  }

  function mark(svg, square, cls) {
    var old = svg.querySelectorAll('rect.' + cls);
    for (var i = 0; i < old.length; i++) old[i].parentNode.removeChild(old[i]);
    if (!square) return;
    var cr = colRow(square);
    var r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('class', cls);
    r.setAttribute('x', EDGE + cr[0] * SQ); r.setAttribute('y', EDGE + cr[1] * SQ);
    r.setAttribute('width', SQ); r.setAttribute('height', SQ);
    r.setAttribute('data-square', square);
    var firstPiece = svg.querySelector('g.piece');
    svg.insertBefore(r, firstPiece);
  }

  function played(svg, from, to) {
    var box = document.getElementById('move');
    if (!box) return;
    box.value = moveText(svg, from, to);
    mark(svg, null, 'picked');
    askPreview(true);
  }

  function setUpBoard() {
    var m = main(), svg = document.getElementById('board');
    var box = document.getElementById('move');
    if (!m || !svg || !box || m.getAttribute('data-my-turn') !== 'true') return;
    svg.setAttribute('tabindex', '0');
    svg.setAttribute('data-interactive', 'true');
    var from = null, drag = null, cursor = black() ? 'e7' : 'e2';

    svg.addEventListener('pointerdown', function (e) {
      var sq = squareAt(svg, e.clientX, e.clientY);
      if (!sq) return;
      if (from && from !== sq && !pieceOwnedHere(svg, sq)) { played(svg, from, sq); from = null; return; }
      var piece = pieceOn(svg, sq);
      if (!piece) { from = null; mark(svg, null, 'picked'); return; }
      from = sq;
      mark(svg, sq, 'picked');
      var start = svg.createSVGPoint(); start.x = e.clientX; start.y = e.clientY;
      drag = { piece: piece, base: piece.getAttribute('transform'), start: start.matrixTransform(svg.getScreenCTM().inverse()) };
      piece.parentNode.appendChild(piece);
      if (svg.setPointerCapture) { try { svg.setPointerCapture(e.pointerId); } catch (x) { /* the pointer is gone */ } }
      e.preventDefault();
    });
    svg.addEventListener('pointermove', function (e) {
      if (!drag) return;
      var pt = svg.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      drag.piece.setAttribute('transform', drag.base + ' translate(' + (p.x - drag.start.x) + ' ' + (p.y - drag.start.y) + ')');
    });
    svg.addEventListener('pointerup', function (e) {
      if (!drag) return;
      var d = drag; drag = null;
      d.piece.setAttribute('transform', d.base);
      var to = squareAt(svg, e.clientX, e.clientY);
      if (to && from && to !== from) { played(svg, from, to); from = null; }
    });
    svg.addEventListener('keydown', function (e) {
      var cr = colRow(cursor), k = e.key;
      if (k === 'ArrowLeft') cr[0] = Math.max(0, cr[0] - 1);
      else if (k === 'ArrowRight') cr[0] = Math.min(7, cr[0] + 1);
      else if (k === 'ArrowUp') cr[1] = Math.max(0, cr[1] - 1);
      else if (k === 'ArrowDown') cr[1] = Math.min(7, cr[1] + 1);
      else if (k === 'Enter' || k === ' ') {
        if (from && from !== cursor) { played(svg, from, cursor); from = null; }
        else if (pieceOn(svg, cursor)) { from = cursor; mark(svg, cursor, 'picked'); }
        e.preventDefault();
        return;
      } else if (k === 'Escape') { from = null; mark(svg, null, 'picked'); return; }
      else return;
      cursor = nameOf(cr[0], cr[1]);
      mark(svg, cursor, 'cursor');
      svg.setAttribute('aria-activedescendant', cursor);
      var status = document.getElementById('preview');
      if (status && !from) status.textContent = cursor;
      e.preventDefault();
    });
    svg.addEventListener('focus', function () { mark(svg, cursor, 'cursor'); });
    svg.addEventListener('blur', function () { mark(svg, null, 'cursor'); });
  }

  // A piece of the player's own colour stands on the square (a click there picks it up
  // rather than moving onto it).
  function pieceOwnedHere(svg, square) {
    var piece = pieceOn(svg, square);
    if (!piece) return false;
    var p = piece.getAttribute('data-piece');
    var white = 'wW'.indexOf(p) >= 0 || ('bB'.indexOf(p) < 0 && p === p.toUpperCase());
    return white !== black();
  }

  function askPreview(now) {
    var box = document.getElementById('move'), out = document.getElementById('preview');
    var form = document.getElementById('move-form');
    if (!box || !out || !form) return;
    clearTimeout(previewTimer);
    var text = box.value.trim();
    if (!text) { out.textContent = ''; return; }
    previewTimer = setTimeout(function () {
      var seq = ++previewSeq;
      var number = form.querySelector('input[name=number]').value;
      var url = location.pathname.replace(/\/$/, '') + '/preview?move=' +
        encodeURIComponent(text) + '&number=' + encodeURIComponent(number);
      fetch(url, { credentials: 'same-origin' }).then(function (r) { return r.json(); }).then(function (j) {
        if (seq !== previewSeq) return;
        out.textContent = '';
        var span = document.createElement('span');
        if (j.ok) {
          span.className = 'understood';
          var strong = document.createElement('strong');
          strong.id = 'read-as';
          strong.textContent = j.read;
          span.appendChild(document.createTextNode((out.getAttribute('data-read-as') || '') + ' '));
          span.appendChild(strong);
        } else {
          span.className = 'error';
          span.textContent = j.reason;
        }
        out.appendChild(span);
        out.setAttribute('data-ok', j.ok ? 'true' : 'false');
      }).catch(function () { /* the page stays as it is */ });
    }, now ? 0 : 250);
  }

  function setUpBox() {
    var box = document.getElementById('move'), form = document.getElementById('move-form');
    if (box) box.addEventListener('input', function () { askPreview(false); });
    // The Check button (and Enter, whose button it is) reads the move in place: no new page,
    // so nothing the page holds is lost.
    if (form) form.addEventListener('submit', function (e) {
      var by = e.submitter;
      if (by && by.value !== 'check') return;
      e.preventDefault();
      askPreview(true);
    });
  }

  // Keeps what the player was typing when the page is put in place again.
  var KEPT = ['move', 'message', 'line', 'bank-days'];

  // The position the page shows: the moves played so far.
  function movesOf(m) { return m ? m.getAttribute('data-moves') : null; }

  function refresh() {
    fetch(location.href, { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.text() : null; }).then(function (t) {
      if (!t) return;
      var d = new DOMParser().parseFromString(t, 'text/html');
      var fresh = d.getElementById('main'), old = main();
      if (!fresh || !old) return;
      if (d.body.getAttribute('data-version') === document.body.getAttribute('data-version')) return;
      var focused = document.activeElement && document.activeElement.id;
      var caret = focused && document.activeElement.selectionStart;
      KEPT.forEach(function (id) {
        var a = document.getElementById(id), b = d.getElementById(id);
        if (a && b && a.value) b.value = a.value;
      });
      var samePosition = movesOf(old) === movesOf(fresh);
      // The reading of what is typed stays while the position does; a new position reads
      // it again.
      var reading = document.getElementById('preview'), freshReading = d.getElementById('preview');
      var typed = document.getElementById('move');
      var readAgain = false;
      if (reading && freshReading && typed && typed.value.trim()) {
        if (samePosition) {
          while (freshReading.firstChild) freshReading.removeChild(freshReading.firstChild);
          while (reading.firstChild) freshReading.appendChild(reading.firstChild);
          var ok = reading.getAttribute('data-ok');
          if (ok) freshReading.setAttribute('data-ok', ok);
        } else {
          readAgain = true;
        }
      }
      // The reply to the player's last action gives way to the opponent's answer.
      if (!samePosition) {
        var flash = d.getElementById('flash');
        if (flash) flash.parentNode.removeChild(flash);
        if (location.search.indexOf('done=') >= 0 && history.replaceState) {
          history.replaceState(null, '', location.pathname);
        }
      }
      old.replaceWith(fresh);
      document.title = d.title;
      var icon = document.getElementById('icon'), freshIcon = d.getElementById('icon');
      if (icon && freshIcon) icon.setAttribute('href', freshIcon.getAttribute('href'));
      document.body.setAttribute('data-waiting', d.body.getAttribute('data-waiting') || '0');
      document.body.setAttribute('data-version', d.body.getAttribute('data-version') || '');
      setUp();
      var back = focused && document.getElementById(focused);
      if (back) {
        back.focus();
        if (typeof caret === 'number' && back.setSelectionRange) {
          try { back.setSelectionRange(caret, caret); } catch (x) { /* not a text field */ }
        }
      }
      if (readAgain) askPreview(true);
    });
  }

  function live() {
    var url = document.body.getAttribute('data-live');
    if (!url || !window.EventSource) return;
    var es = new EventSource(url);
    es.addEventListener('change', refresh);
    // What changed between the page's making and the listener's start sends no event: the
    // page is read again once the listener is open.
    es.onopen = function () { document.body.setAttribute('data-live-state', 'open'); refresh(); };
    es.onerror = function () {
      document.body.setAttribute('data-live-state', 'error');
      if (es.readyState === 2) setTimeout(live, 5000);
    };
  }

  function setUp() { setUpBoard(); setUpBox(); }

  setUp();
  live();
})();
