/**
 * Which MCP tool serves each daemon method, or why a method is the CLI's (or the daemon's) alone:
 * read from the method table (contract/methods.ts), where each method names its face beside its
 * types, so a new method does not compile until it has a face or a reason;
 * tests/hand/mcp-server.test.ts checks each tool is served.
 */
export { FACES as MCP_FACE, type Face } from '../../contract/methods.ts';
