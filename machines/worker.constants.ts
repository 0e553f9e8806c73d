/**
 * Timings, limits and fixed problem strings of the worker machine, shared by its setup (guards),
 * its state files and the tests that drive it. Re-exported by worker.machine.ts.
 */
/** How long the screen gets to settle after the teardown Escape before /exit goes out. */
export const ESCAPE_SETTLE_MS = 800;
/**
 * How long an interrupted turn gets to stop `working` before teardown goes on to /exit anyway.
 * The agent answers Escape within a frame or two; the bound only stops a wedged one from
 * holding up the stop (whose own deadline still decides the outcome).
 */
export const INTERRUPT_SETTLE_MS = 5_000;
/** How long the box gets to show empty after teardown's ctrl-u before /exit is withheld. */
export const CLEAR_SETTLE_MS = 800;
/** The stop gave up without typing /exit: ctrl-u did not empty the box, and /exit would have been appended to it. */
export const BOX_NOT_CLEARED = 'teardown: the input box still held text after ctrl-u; /exit was not typed';
/**
 * How long our first prompt may sit in the box before its Enter counts as lost. A TUI that is
 * still busy painting takes a moment to act on an Enter; pressing again too early would send a
 * second Enter after a first one that was merely slow.
 */
export const RESUBMIT_AFTER_MS = 2_000;
/**
 * How long an idle screen with an empty box must hold unchanged before briefing counts as
 * settled without a `working` screen ever seen. Real Claude Code keeps redrawing its startup
 * screen, and right after Enter there is a moment with the box empty and no spinner yet: a
 * changed idle screen alone is not proof that the turn ran.
 */
export const BRIEF_QUIET_MS = 1_800;
/**
 * How long the first idle, empty-box screen gets before the first prompt is typed. Real Claude
 * Code keeps redrawing its start screen for about a second after the box first appears, and a
 * prompt typed into it then can be lost entirely (reference §5, §8.1: a dialog opening then
 * drops keys). Measured from that first screen, not re-armed by its redraws.
 */
export const STARTUP_SETTLE_MS = 1_000;
/**
 * How long the first prompt waits instead when the first idle screen says the agent has not
 * finished starting (ScreenReading.startingUp: Gemini CLI draws its box before it has loaded its
 * configuration, and a resumed conversation loaded after that drops a line typed before). A
 * screen that no longer says so brings the prompt in to STARTUP_SETTLE_MS from it; a start that
 * keeps saying so (a person's settings hide everything it draws first) is typed into after this.
 */
export const STARTING_UP_WAIT_MS = 15_000;
/** Enters pressed again for a first prompt left in the box before a person is asked. */
export const MAX_BRIEF_RETRIES = 3;
export const PROMPT_NOT_SUBMITTED = 'first prompt not submitted';
/**
 * How long after the first prompt went out (or after its last re-pressed Enter) the worker may
 * show nothing that confirms it: no `working`, no dialog, our text not back in the box, no
 * changed idle screen. A real Claude Code against a slow API draws its spinner within a few
 * seconds of Enter; a minute is generous for a loaded machine and still far from the hours a
 * worker would otherwise sit in `briefing.confirming`, where nobody reads it as a problem.
 */
export const BRIEF_CONFIRM_MS = 60_000;
/** The confirmation deadline passed: the prompt left the box but nothing showed that it ran. */
export const BRIEF_NOT_TAKEN_UP = 'first prompt sent, but the worker showed no sign of taking it up';
/** How long the agent gets to leave by /exit after its work landed (the stop deadline of that teardown). */
export const LANDING_STOP_TIMEOUT_MS = 30_000;
/**
 * How long a readable screen may stay "could not tell" (the reader found no box, dialog or
 * spinner) before it is a condition of its own that wakes a person: far shorter than the stall
 * threshold, because an unreadable layout (a new Claude Code version) would otherwise hide a
 * waiting dialog for the whole stall time.
 */
export const UNCLASSIFIED_MS = 30_000;
/**
 * How long an idle screen after work must hold (repaints allowed, no change) before the worker
 * counts as settled. A screen flipping between a finished turn and a spinner every 0.3 s was
 * called settled at once (issue 21); each idle spell of such a screen is shorter than this. The
 * cost: every settle is reported this much later (a quiet fleet's `hand wait --until settled`
 * returns half a second later than the screen went idle).
 */
export const SETTLE_QUIET_MS = 500;
/** Starting: the first prompt was due, and the input box already held text nobody sent (quoted after the colon). */
export const BOX_HELD_AT_START = 'first prompt not typed: the input box already holds text';
