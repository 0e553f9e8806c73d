/** The environment variable that marks the Hand's shell and MCP server (set in the kit's settings): its requests carry `via: 'hand'`. */
export const HAND_CALLER_ENV = 'HAND_CALLER';
