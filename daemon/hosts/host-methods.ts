/**
 * Machines the fleet reaches over ssh (issue 28): `host.*` and `project.host`, each with its edge
 * parser and its handler (method-entry.ts; the bodies are in host-handlers.ts beside this file).
 */
import { isPrototypeName, prototypeNameWhy } from '../../contract/plain-name.ts';
import { UsageError } from '../../contract/errors.ts';
import type { WireObject } from '../../contract/protocol.ts';
import { none, type FamilyTable } from '../method-entry.ts';
import { flag, opt, text } from '../params.ts';

/** A host's name: short, lower-case, a word a command line and a status column can carry. */
function hostName(p: WireObject): string {
  const name = text(p, 'name', 'the host name');
  if (isPrototypeName(name)) throw new UsageError('bad-host-name', `${prototypeNameWhy('host name', name)}.`, { key: 'name' });
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(name)) {
    throw new UsageError('bad-host-name', `host name ${JSON.stringify(name)} must be 1-40 lower-case letters, digits or dashes, starting with a letter or digit`, { key: 'name' });
  }
  return name;
}

export const HOST_METHODS: FamilyTable<'hosts'> = {
  'host.add': {
    parse: (p) => {
      const name = hostName(p);
      const destination = text(p, 'destination', 'where the host is (user@address)');
      const at = destination.lastIndexOf('@');
      const user = destination.slice(0, at);
      const address = destination.slice(at + 1);
      if (at <= 0 || !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(user) || !/^[A-Za-z0-9][A-Za-z0-9.:-]*$/.test(address)) {
        throw new UsageError('bad-destination', `${JSON.stringify(destination)} is not user@address; write it as alice@build-box or alice@10.0.0.5`, { key: 'destination' });
      }
      const port = p.port === undefined || p.port === null ? undefined : Number(p.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
        throw new UsageError('bad-port', `--port ${JSON.stringify(p.port)} is not a port (1..65535)`, { key: 'port' });
      }
      const absolute = (key: 'identity' | 'knownHosts', flagName: string) => {
        const v = opt(p, key);
        if (v !== undefined && !v.startsWith('/')) throw new UsageError('bad-request', `${flagName} ${JSON.stringify(v)} must be an absolute path`, { key });
        return v;
      };
      const identity = absolute('identity', '--identity');
      const knownHosts = absolute('knownHosts', '--known-hosts');
      return { name, destination, ...(port !== undefined && { port }), ...(identity && { identity }), ...(knownHosts && { knownHosts }) };
    },
    handle: (w) => w.hosts['host.add'],
  },
  'host.list': { parse: none, handle: (w) => w.hosts['host.list'] },
  'host.check': { parse: (p) => ({ name: text(p, 'name', 'the host name') }), handle: (w) => w.hosts['host.check'] },
  'host.trust': {
    parse: (p) => {
      const knownHosts = text(p, 'knownHosts', 'a known_hosts file holding the host\'s new key (--known-hosts)');
      if (!knownHosts.startsWith('/')) throw new UsageError('bad-request', `--known-hosts ${JSON.stringify(knownHosts)} must be an absolute path`, { key: 'knownHosts' });
      return { name: text(p, 'name', 'the host name'), knownHosts };
    },
    handle: (w) => w.hosts['host.trust'],
  },
  'host.remove': { parse: (p) => ({ name: text(p, 'name', 'the host name') }), handle: (w) => w.hosts['host.remove'] },
  'project.host': {
    parse: (p) => {
      const path = text(p, 'path', 'the checkout path on that host');
      if (!path.startsWith('/')) throw new UsageError('bad-path', `the path on the host must be absolute, got ${JSON.stringify(path)}`, { key: 'path' });
      return { name: text(p, 'name', 'the project name'), host: text(p, 'host', 'the host name'), path, default: flag(p, 'default') };
    },
    handle: (w) => w.hosts['project.host'],
  },
};
