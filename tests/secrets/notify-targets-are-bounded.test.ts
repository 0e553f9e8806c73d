/**
 * Rule: a notification target is bounded (issue 24 item 7): `notify add` took
 * http://169.254.169.254/…, port 0 and a 100 KB URL. Now: http/https only, no link-local,
 * loopback only with --allow-loopback, port 1–65535, at most 2,048 characters — each refusal
 * naming its bound.
 */
import { describe, expect, it } from 'vitest';
import { makeTarget, MAX_TARGET_URL } from '../../actors/notify/targets.ts';

const refusal = (url: string, opts: { allowLoopback?: boolean } = {}): string => {
  try {
    makeTarget('webhook', [url], 0, opts);
  } catch (err) {
    return (err as Error).message;
  }
  return expect.fail(`${url} was accepted`);
};

describe('notify targets are bounded', () => {
  it('refuses link-local addresses (the metadata service), even with --allow-loopback', () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/x', 'http://[::ffff:169.254.169.254]/x', 'https://[febf::2]/']) {
      expect(refusal(url, { allowLoopback: true }), url).toMatch(/link-local \(169\.254\.0\.0\/16 or fe80::\/10/);
    }
  });

  it('refuses loopback unless --allow-loopback is given', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://[::1]:9/x', 'http://[::ffff:127.0.0.1]/x', 'http://0.0.0.0:80/', 'http://localhost./x', 'http://LOCALHOST../x', 'http://127.0.0.1./x']) {
      expect(refusal(url), url).toContain('--allow-loopback');
      expect(makeTarget('webhook', [url], 0, { allowLoopback: true }).kind, url).toBe('webhook');
    }
  });

  it('refuses port 0 and a port past 65535, naming the range', () => {
    expect(refusal('https://example.com:0/x')).toContain('outside 1–65535');
    expect(refusal('https://example.com:70000/x')).toContain('1–65535');
  });

  it('refuses a URL longer than the bound, naming it', () => {
    const long = `https://ntfy.sh/${'a'.repeat(100_000)}`;
    const msg = refusal(long);
    expect(msg).toContain(`the bound is ${MAX_TARGET_URL}`);
    expect(MAX_TARGET_URL).toBe(2048);
  });

  it('refuses other schemes and takes an ordinary https or ntfy URL', () => {
    expect(refusal('ftp://example.com/x')).toContain('http or https');
    expect(refusal('file:///etc/passwd')).toContain('http or https');
    expect(makeTarget('ntfy', ['https://ntfy.sh/my-topic'], 0).kind).toBe('ntfy');
    expect(makeTarget('webhook', ['http://hooks.example.com:8443/x'], 0).kind).toBe('webhook');
  });
});
