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

import type { TmuxControlClient } from './control-client.ts';
import { quoteControlArg } from './control-protocol.ts';
import { MONITOR_OPTION } from './pane-info.ts';

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

/** What the echo needs of the watchers that use it. */
export interface EchoedDeathsPort {
  /** Runs one tmux command (over the control client when it is up). */
  run(args: readonly string[]): Promise<string>;
  /** One control command, written with every other due in this turn of the event loop; rejects when no client is up. */
  command(line: string): Promise<string[]>;
  /** Watched, not being closed, and not yet hooked into the current placeholder. */
  wantsHook(paneId: string): boolean;
  /** Its hook is set (ask once whether it died before: that death would never echo). */
  hooked(paneId: string): void;
  /** The placeholder echoed this pane's id: it died. */
  died(paneId: string): void;
  /** The placeholder echoes: every watched pane should be hooked. */
  echoing(): void;
  notice(message: string, fields: Record<string, unknown>): void;
}

/** The echo channel of one control client: its placeholder, whether it was heard, and the hooks due. */
export class EchoedDeaths {
  /** The placeholder, once it was heard echoing what is typed into it. */
  private echoPane: string | null = null;
  private client: TmuxControlClient | null = null;
  /** Panes whose hook is being set. */
  private readonly setting = new Set<string>();

  constructor(private readonly port: EchoedDeathsPort) {}

  /** A new client: finds the placeholder and types a probe into it; its echo turns the hooks on. */
  async listen(client: TmuxControlClient, sessionId: string): Promise<void> {
    this.echoPane = null;
    this.client = client;
    try {
      const listing = await this.port.run(['list-panes', '-s', '-t', sessionId, '-F', `#{pane_id}\t#{?#{${MONITOR_OPTION}},1,0}`]);
      const placeholder = placeholderIn(listing);
      if (!placeholder) return;
      client.textPane = placeholder;
      for (const args of echoProbeArgs(placeholder)) await this.port.run(args);
    } catch (err) {
      this.port.notice('could not ask the monitor placeholder to echo; pane exits are found by asking', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** The placeholder drew: the first time, it echoes; after that, the panes that died. */
  onEcho(text: string): void {
    const placeholder = this.client?.textPane ?? null;
    if (placeholder && this.echoPane !== placeholder) {
      this.echoPane = placeholder;
      this.port.echoing();
    }
    for (const paneId of deadPanesInEcho(text)) this.port.died(paneId);
  }

  /**
   * Sets the pane's death hook once the placeholder echoes, through the port's batched command:
   * a resume watches hundreds of panes at once, and their hooks go in one write, not holding up
   * their first reads.
   */
  hook(paneId: string): void {
    const placeholder = this.echoPane;
    if (!placeholder || this.setting.has(paneId) || !this.port.wantsHook(paneId)) return;
    this.setting.add(paneId);
    this.port
      .command(deathHookArgs(paneId, placeholder).map(quoteControlArg).join(' '))
      .then(
        () => {
          if (this.echoPane === placeholder && this.port.wantsHook(paneId)) this.port.hooked(paneId);
        },
        () => {}, // an old tmux without pane hooks, a pane already gone, the client lost: the probes stay
      )
      .finally(() => this.setting.delete(paneId));
  }
}
