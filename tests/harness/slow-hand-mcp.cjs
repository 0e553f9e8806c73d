/**
 * Test-only preload (NODE_OPTIONS=--require …): `hand mcp` starts KH_TEST_SLOW_MCP_MS late, as it
 * does on a loaded machine, so a Claude Code session that asks its model before its MCP servers
 * have answered is caught every run, not once in a while. Every other hand command is untouched.
 */
const ms = Number(process.env.KH_TEST_SLOW_MCP_MS ?? 0);
if (ms > 0 && process.argv.slice(2).includes('mcp')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
