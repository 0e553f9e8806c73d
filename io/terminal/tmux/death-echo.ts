/**
 * A pane's death, pushed: each watched pane gets a `pane-died` hook that types the pane's id into
 * the monitor session's placeholder pane, whose terminal echoes it, so the control client hears
 * `%output <placeholder> %<n> ` the moment tmux notices the death (issue 26).
 *
 * Why an echo: tmux 3.3a drops every notification raised by a command a hook runs (notify_add
 * returns early under CMDQ_STATE_NOHOOKS), so a hook that renames or selects a window is never
 * heard by a control client, and 3.3a has no `%paste-buffer-changed`. Keys sent to a pane are
 * different: they reach its pty, and the kernel's echo comes back as ordinary output. The
 * placeholder runs `tail -f /dev/null`, which never reads its terminal; a C-u after the id
 * (VKILL) empties the line, so its input queue never fills however many panes die.
 *
 * Before this, a death was found by asking `#{pane_dead}` each time a pane's output went quiet
 * for 60 ms — about ten times a second per streaming worker, since a spinner pauses 100 ms
 * between frames: the largest share of the daemon's remaining cost per streaming worker. The ask
 * stays for a pane whose hook could not be set, and whenever the echo was not heard working.
 */

/** The `set-hook` argv making `paneId`'s death type its id into `placeholderId`. */
export function deathHookArgs(paneId: string, placeholderId: string): string[] {
  if (!/^%\d+$/.test(paneId) || !/^%\d+$/.test(placeholderId)) throw new Error(`not tmux pane ids: ${paneId}, ${placeholderId}`);
  // The hook's text is parsed by tmux when the hook runs: two commands, the ids quoted.
  return ['set-hook', '-p', '-t', paneId, 'pane-died', `send-keys -t "${placeholderId}" -l "${paneId} " ; send-keys -t "${placeholderId}" C-u`];
}

/** The probe typed into the placeholder to learn whether its terminal echoes at all. */
export function echoProbeArgs(placeholderId: string): string[][] {
  return [
    ['send-keys', '-t', placeholderId, '-l', 'kh '],
    ['send-keys', '-t', placeholderId, 'C-u'],
  ];
}

/** Pane ids in what the placeholder echoed (`%12 \010 \010…`); the probe's `kh` names none. */
export function deadPanesInEcho(text: string): string[] {
  return [...text.matchAll(/%(\d+)(?= )/g)].map((m) => `%${m[1]}`);
}

/** The placeholder's pane id from `list-panes -s -F '#{pane_id}\t<is it the placeholder>'`. */
export function placeholderIn(listing: string): string | null {
  for (const line of listing.split('\n')) {
    const [id, mark] = line.split('\t');
    if (mark === '1' && id && /^%\d+$/.test(id)) return id;
  }
  return null;
}
