// The environment the suite's processes start with. One thing is left out of what the machine
// gives: NODE_EXTRA_CA_CERTS. With it set, every Node process parses that bundle and builds its
// whole root store as it starts, before its first line runs — a machine that points it at the
// system bundle (144 certificates; this one does, for its egress proxy's CA) makes a bare
// `node -e 0` cost 92 ms of CPU instead of 27. The suite starts ~1,200 Node processes a run (the
// `hand` commands, daemons, mock agents, hooks, the doubles' CLIs), and none of them reaches the
// network: every server a test talks to is on 127.0.0.1, over plain HTTP. Left out, a test that
// did reach for the internet fails on the proxy's certificate instead of quietly succeeding.
//
// The one thing in the suite that does reach the registry, npm installing an agent build the
// corpus pins into ~/.cache/kingshand on first use, gets the bundle back (`registryEnv`), as
// KH_MACHINE_NODE_EXTRA_CA_CERTS carries it. KH_SUITE_CA=keep leaves the variable as it is.

/** `env` for the suite: NODE_EXTRA_CA_CERTS moved aside, unless KH_SUITE_CA=keep. */
export function suiteEnv(env = process.env) {
  const out = { ...env };
  const ca = out.NODE_EXTRA_CA_CERTS;
  if (ca === undefined || out.KH_SUITE_CA === 'keep') return { env: out, movedCa: null };
  delete out.NODE_EXTRA_CA_CERTS;
  out.KH_MACHINE_NODE_EXTRA_CA_CERTS = ca;
  return { env: out, movedCa: ca };
}
