// The review page's only script (served from the package; the page allows no inline script).
// It follows the server's event stream and swaps in the fragments the server rendered, and
// sends the person's decisions to the daemon's handlers with the token and JSON.
'use strict';
(function () {
  const body = document.body;
  const token = document.querySelector('meta[name="hand-token"]').content;
  const worker = body.dataset.worker || null;
  const live = document.getElementById('live');
  const toast = document.getElementById('toast');

  function say(text, bad) {
    toast.textContent = text;
    toast.className = bad ? 'toast bad' : 'toast';
    toast.hidden = false;
  }

  function highlightDiff() {
    const el = document.getElementById('diff');
    if (!el || el.dataset.highlighted || !window.Diff2HtmlUI || !el.querySelector('.d2h-wrapper')) return;
    el.dataset.highlighted = '1';
    try {
      const ui = new window.Diff2HtmlUI(el, undefined, { highlight: true, fileListToggle: false, stickyFileHeaders: false, synchronisedScroll: false });
      ui.highlightCode();
    } catch (err) {
      console.warn('diff highlighting failed', err);
    }
  }

  // Swapping a fragment must not eat what the person is typing (a rejection reason) or their focus.
  function swap(id, html) {
    const el = document.getElementById(id);
    if (!el) return;
    const reason = el.querySelector('input[name="reason"], input[name="answer"]');
    const kept = reason ? { value: reason.value, focused: document.activeElement === reason } : null;
    const focusedAction = document.activeElement && el.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    // A note being written on an item (annotate forms): its words and its open form survive the swap.
    const notes = Array.prototype.map.call(el.querySelectorAll('form[data-action="annotate"]'), function (f) {
      const area = f.querySelector('textarea');
      return { item: f.dataset.item, value: area ? area.value : '', open: Boolean(f.closest('details') && f.closest('details').open), focused: document.activeElement === area };
    });
    el.innerHTML = html;
    notes.forEach(function (n) {
      const f = el.querySelector('form[data-action="annotate"][data-item="' + n.item + '"]');
      if (!f) return;
      const area = f.querySelector('textarea');
      if (area && n.value) area.value = n.value;
      if (n.open && f.closest('details')) f.closest('details').open = true;
      if (n.focused && area) area.focus();
    });
    if (kept) {
      const again = el.querySelector('input[name="' + reason.name + '"]');
      if (again) {
        again.value = kept.value;
        if (kept.focused) again.focus();
      }
    }
    if (focusedAction) {
      const btn = el.querySelector('[data-action="' + focusedAction + '"]');
      if (btn) btn.focus();
    }
  }

  function follow() {
    const src = new EventSource(worker ? '/events?worker=' + encodeURIComponent(worker) : '/events');
    src.onopen = function () {
      live.textContent = 'live';
      live.className = 'live on';
    };
    src.onerror = function () {
      // A refused reconnect (403: the session ended or was signed out) closes the stream for good.
      live.textContent = src.readyState === EventSource.CLOSED ? 'signed out or stopped: run hand review --open' : 'reconnecting…';
      live.className = 'live off';
    };
    src.addEventListener('fleet', function (e) {
      const d = JSON.parse(e.data);
      swap('fleet', d.html);
      document.title = d.title;
    });
    src.addEventListener('head', function (e) {
      const d = JSON.parse(e.data);
      swap('head', d.html);
      document.title = d.title;
    });
    src.addEventListener('screen', function (e) {
      const el = document.getElementById('screen');
      if (el) el.innerHTML = JSON.parse(e.data).html;
    });
    src.addEventListener('details', function (e) {
      swap('details', JSON.parse(e.data).html);
      highlightDiff();
    });
  }

  async function act(name, params, control, done) {
    if (control) control.disabled = true;
    say(name + ' ' + params.id + '…', false);
    try {
      const res = await fetch('/api/' + name, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hand-token': token },
        body: JSON.stringify(params),
        credentials: 'same-origin',
      });
      const out = await res.json();
      if (out.ok) {
        const r = out.result || {};
        say(params.id + ': ' + name + ' done' + (r.stage ? ' · now ' + r.stage : '') + (r.message ? ' · ' + r.message : ''), false);
        if (done) done(r);
      } else {
        say(out.error && out.error.message ? out.error.message : 'refused (' + res.status + ')', true);
      }
    } catch (err) {
      say('the daemon did not answer: ' + err, true);
    } finally {
      if (control && control.isConnected) control.disabled = false;
    }
  }

  document.addEventListener('click', function (e) {
    const btn = e.target.closest('button[data-action]');
    if (!btn) return;
    if (btn.dataset.confirm && !window.confirm(btn.dataset.confirm)) return;
    const params = { id: btn.dataset.id };
    // The person's word on the repository's agent settings, given by confirming the dialog above.
    if (btn.dataset.acceptAgentSettings === '1') params.acceptAgentSettings = true;
    // A dialog's option carries the fingerprint of the dialog this page showed (hand answer's check).
    if (btn.dataset.action === 'answer') {
      params.option = Number(btn.dataset.option);
      params.fingerprint = btn.dataset.fingerprint;
    }
    act(btn.dataset.action, params, btn);
  });
  document.addEventListener('submit', function (e) {
    const form = e.target.closest('form[data-action]');
    if (!form) return;
    e.preventDefault();
    if (form.dataset.action === 'annotate') {
      // The person's note on one item (or the worker as a whole): the daemon's annotate handler, as hand annotate.
      const area = form.querySelector('textarea[name="note"]');
      const text = area.value.trim();
      if (!text) {
        say('write the note first', true);
        return;
      }
      act('annotate', { id: form.dataset.id, item: form.dataset.item, text: text }, form.querySelector('button'), function (r) {
        area.value = '';
        const list = document.querySelector('ul.notes[data-notes-for="' + form.dataset.item + '"]');
        if (list) {
          const li = document.createElement('li');
          li.dataset.n = String(r.n);
          const words = document.createElement('span');
          words.className = 'note-text';
          words.textContent = r.text;
          const meta = document.createElement('span');
          meta.className = 'muted small';
          meta.textContent = ' #' + r.n + ' · new';
          li.append(words, meta);
          list.append(li);
        }
        say(savedText(r), false);
      });
      return;
    }
    if (form.dataset.action === 'decide') {
      // One field: the answer, or (Decline) the reason; both go to the handler `hand decide` uses.
      const text = form.querySelector('input[name="answer"]').value.trim();
      const decline = e.submitter && e.submitter.value === 'decline';
      if (!text) {
        say(decline ? 'declining needs a reason' : 'write the answer first', true);
        return;
      }
      const params = { id: form.dataset.id, key: form.dataset.key };
      if (decline) params.declined = text;
      else params.answer = text;
      act('decide', params, e.submitter || form.querySelector('button'));
      return;
    }
    const reason = form.querySelector('input[name="reason"]').value.trim();
    if (!reason) {
      say('a rejection needs a reason the worker can act on', true);
      return;
    }
    act(form.dataset.action, { id: form.dataset.id, reason: reason }, form.querySelector('button'));
  });

  function savedText(r) {
    return 'note #' + r.n + ' on ' + r.worker + ' ' + r.item + ' saved: the Hand is told';
  }

  follow();
  if (document.readyState === 'complete') highlightDiff();
  else window.addEventListener('load', highlightDiff);
})();
