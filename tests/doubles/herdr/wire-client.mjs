// The client half of the wire: newline-delimited JSON over a Unix socket, one request per line.
import { createConnection } from 'node:net';
import { createInterface } from 'node:readline';

/** Calls onLine for every complete line the socket delivers (both halves of the wire use it): node's own line reader, not a copy of the product's splitter, so the double does not share its bugs. */
export function onLines(socket, onLine) {
  // The socket's own error listeners decide what an error means; the reader only passes it on.
  createInterface({ input: socket, crlfDelay: Infinity }).on('line', onLine).on('error', () => {});
}

/** Sends one request and resolves with the first reply line parsed, or null if nobody listens. */
export function connectOnce(socketPath, request) {
  return new Promise((resolve) => {
    let done = false;
    const socket = createConnection(socketPath);
    const finish = (value) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(value);
    };
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    onLines(socket, (line) => finish(JSON.parse(line)));
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}

/**
 * Sends a streaming request: the first reply line is the acknowledgement (or an error), every
 * later line is handed to onLine until the server closes the stream.
 */
export function streamLines(socketPath, request, onLine) {
  return new Promise((resolve) => {
    let acknowledged = false;
    let outcome = { connected: false, error: null };
    const socket = createConnection(socketPath);
    socket.on('connect', () => {
      outcome.connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    onLines(socket, (line) => {
      if (acknowledged) return onLine(line);
      acknowledged = true;
      const reply = JSON.parse(line);
      if (reply.error) outcome.error = reply.error;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(outcome));
    // A stdout reader that goes away (the observer was stopped) ends the stream.
    process.stdout.on('error', () => socket.destroy());
  });
}
