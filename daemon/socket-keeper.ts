/**
 * The daemon stays reachable while it holds the home: if its socket file is deleted (a cleanup
 * script, a person tidying up), every command used to find "no daemon is running" while the lock
 * said another daemon held the home, and nothing could stop it. The keeper checks the path and
 * listens afresh when the file is gone or is no longer ours.
 */
import { statSync } from 'node:fs';
import type { Server } from 'node:net';

export interface KeptSocket {
  close(): void;
}

const CHECK_MS = 500;

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino;
  } catch {
    return null;
  }
}

export async function keepSocket(path: string, listen: () => Promise<Server>, log: (obj: Record<string, unknown>, msg: string) => void): Promise<KeptSocket> {
  let server = await listen();
  let ino = inodeOf(path);
  let closed = false;
  let busy = false;
  const timer = setInterval(() => {
    if (closed || busy || (ino !== null && inodeOf(path) === ino)) return;
    busy = true;
    server.close(); // stops accepting on the lost file; requests in flight finish
    listen()
      .then((next) => {
        if (closed) return next.close();
        server = next;
        ino = inodeOf(path);
        log({ socket: path }, 'socket file was lost; listening again');
      })
      .catch((err: unknown) => log({ socket: path, err: String(err) }, 'could not listen again on the socket'))
      .finally(() => {
        busy = false;
      });
  }, CHECK_MS);
  timer.unref();
  return {
    close() {
      closed = true;
      clearInterval(timer);
      server.close();
    },
  };
}
